// Fuzz target: workload files (tools/workload_format.c). Every line of the input goes to
// each of the three line parsers (objects, updates, queries with and without a timestamp), as
// `gridtree bench-knn` and `knn` read them; what parses is replayed on a Grid Tree world over a
// small map (adds, moves, deletes, keyword interning, nearest and within queries) so the values a
// parser lets through reach the code that uses them.
#include <stdint.h>
#include <string.h>

#include "fuzz_support.h"
#include "workload_format.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define SLOTS 64 // workload ids are folded onto a few slots, so moves and deletes find objects

typedef struct Replay {
	gtWorld* world;
	gtObjectId ids[SLOTS];
} Replay;

static int keywords(gtWorld* world, const char words[][GT_WORD_BYTES], int count, int32_t* out)
{
	for (int i = 0; i < count; i++) out[i] = gtWorld_Keyword(world, words[i]); // -1 for a word the world refuses
	return count;
}

static void add(Replay* r, const WlObject* o)
{
	int32_t kw[WL_MAX_WORDS];
	int n = keywords(r->world, o->words, o->word_count, kw);
	gtObjectId* slot = &r->ids[(unsigned)o->id % SLOTS];
	gtError err;
	if (gtWorld_IsValid(r->world, *slot)) gtWorld_Remove(r->world, *slot, &err);
	if (gtWorld_Add(r->world, (gtVec2){o->x, o->y}, kw, n, slot, &err) != GT_OK) *slot = 0;
}

static void query(Replay* r, const WlQuery* wq)
{
	int32_t kw[WL_MAX_WORDS];
	int n = 0;
	for (int i = 0; i < wq->word_count; i++) kw[n++] = gtWorld_FindKeyword(r->world, wq->words[i]);
	gtQuery q = gtQuery_Default((gtVec2){wq->x, wq->y});
	q.k = wq->k;
	q.keywords = kw;
	q.keyword_count = n;
	gtObjectId ids[16];
	double dist[16];
	int count;
	gtError err;
	int capacity = wq->k < 16 ? wq->k : 16;
	gtWorld_NearestEuclid(r->world, &q, ids, dist, capacity, &count, NULL, &err);
	gtWorld_Nearest(r->world, &q, gtDistance_Euclid(), ids, dist, capacity, &count, NULL, &err);
	q.radius = (double)(wq->k % 8);
	gtWorld_WithinEuclid(r->world, &q, ids, dist, 16, &count, NULL, &err);
	gtWorld_Top(r->world, &q, gtDistance_Euclid(), ids, dist, capacity, &count, NULL, &err);
}

static void line(Replay* r, const char* text)
{
	// Each parser prints why it refuses a line; the runner discards stderr (-close_fd_mask=2).
	static WlObject o;
	static WlUpdate u;
	static WlQuery q;
	gtError err;
	if (wl_parse_object(text, "fuzz:objects", &o)) add(r, &o);
	if (wl_parse_update(text, "fuzz:updates", &u)) {
		gtObjectId* slot = &r->ids[(unsigned)u.object.id % SLOTS];
		if (u.op == WL_INSERT) add(r, &u.object);
		else if (u.op == WL_MOVE && gtWorld_IsValid(r->world, *slot))
			gtWorld_Move(r->world, *slot, (gtVec2){u.object.x, u.object.y}, &err);
		else if (u.op == WL_DELETE && gtWorld_IsValid(r->world, *slot)) gtWorld_Remove(r->world, *slot, &err);
	}
	if (wl_parse_query(text, "fuzz:queries", true, &q)) query(r, &q);
	if (wl_parse_query(text, "fuzz:queries", false, &q)) query(r, &q);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	gtWorldDef def = gtWorld_DefaultDef();
	def.leaf_size = 4;
	def.capacity = SLOTS;
	Replay r = {0};
	gtError err;
	if (gtWorld_Create(fuzz_small_map(), &def, &r.world, &err) != GT_OK) abort();
	// The parsers take NUL-terminated lines; the readers hand them lines of at most 4095 bytes.
	char buffer[4096];
	size_t at = 0;
	while (at < size) {
		size_t n = 0;
		while (at + n < size && data[at + n] != '\n' && n < sizeof buffer - 1) n++;
		memcpy(buffer, data + at, n);
		buffer[n] = '\0';
		at += n + (at + n < size && data[at + n] == '\n');
		line(&r, buffer);
	}
	if (gtWorld_Validate(r.world, &err) != GT_OK) {
		fprintf(stderr, "fuzz_workload: the world is inconsistent after a replay: %s\n", err.message);
		abort();
	}
	gtWorld_Destroy(r.world);
	return 0;
}
