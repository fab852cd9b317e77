#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "world/keywords.h"

static uint32_t hash_word(const char* s)
{
	uint32_t h = 2166136261u;
	while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static bool valid_word(const char* word)
{
	size_t n = 0;
	for (; word[n]; n++)
		if (n >= GT_KEYWORD_MAX_BYTES || word[n] <= ' ' || word[n] > '~') return false;
	return n > 0;
}

int32_t gt_vocab_find(const gtVocabulary* v, const char* word)
{
	if (!word || !v->slot_count) return -1;
	for (uint32_t i = hash_word(word) & (v->slot_count - 1);; i = (i + 1) & (v->slot_count - 1)) {
		int32_t id = v->slots[i] - 1;
		if (id < 0) return -1;
		if (strcmp(v->words[id], word) == 0) return id;
	}
}

static bool rehash(gtVocabulary* v, uint32_t slot_count)
{
	int32_t* slots = gt_calloc(slot_count, sizeof *slots);
	if (!slots) return false;
	for (int32_t id = 0; id < v->count; id++) {
		uint32_t i = hash_word(v->words[id]) & (slot_count - 1);
		while (slots[i]) i = (i + 1) & (slot_count - 1);
		slots[i] = id + 1;
	}
	gt_free(v->slots);
	v->slots = slots;
	v->slot_count = slot_count;
	return true;
}

int32_t gt_vocab_intern(gtVocabulary* v, const char* word)
{
	if (!word || !valid_word(word)) return -1;
	int32_t found = gt_vocab_find(v, word);
	if (found >= 0) return found;
	if (v->count == INT32_MAX / 4) return -1;
	if ((uint32_t)(v->count + 1) * 2 > v->slot_count && !rehash(v, v->slot_count ? v->slot_count * 2 : 64)) return -1;
	if (!GT_GROW(v->words, v->capacity, v->count + 1, 32)) return -1;
	size_t n = strlen(word);
	char* copy = gt_malloc(n + 1);
	if (!copy) return -1;
	memcpy(copy, word, n + 1);
	int32_t id = v->count++;
	v->words[id] = copy;
	uint32_t i = hash_word(word) & (v->slot_count - 1);
	while (v->slots[i]) i = (i + 1) & (v->slot_count - 1);
	v->slots[i] = id + 1;
	return id;
}

void gt_vocab_free(gtVocabulary* v)
{
	for (int32_t i = 0; i < v->count; i++) gt_free(v->words[i]);
	gt_free(v->words);
	gt_free(v->slots);
	memset(v, 0, sizeof *v);
}
