// Keyword interning: words to dense ids. Internal.
#ifndef GRIDTREE_KEYWORDS_H
#define GRIDTREE_KEYWORDS_H

#include <stdint.h>

#include "gridtree/gt_world.h" // GT_KEYWORD_MAX_BYTES

typedef struct gtVocabulary {
	char** words;
	int32_t count;
	int64_t capacity;
	int32_t* slots;      // open addressing: word id + 1, 0 = empty
	uint32_t slot_count; // a power of two
} gtVocabulary;

int32_t gt_vocab_find(const gtVocabulary* v, const char* word);
int32_t gt_vocab_intern(gtVocabulary* v, const char* word); // -1: invalid word or out of memory
void gt_vocab_free(gtVocabulary* v);

#endif
