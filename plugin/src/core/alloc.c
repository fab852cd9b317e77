// The allocator hook. Each block carries its size in a small header so the hook gets the old size
// (as lua_Alloc does) and the byte counter stays exact without asking the host.
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "gridtree/gt_base.h"

typedef union BlockHeader {
	size_t size;
	max_align_t align; // keeps the caller's pointer aligned for any type
} BlockHeader;

static void* default_alloc(void* user, void* ptr, size_t old_size, size_t new_size)
{
	(void)user;
	(void)old_size;
	if (new_size == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, new_size);
}

enum { HUGE_BLOCK = 4 << 20 }; // bytes from which a block is advised huge pages

static gtAllocFcn* alloc_fcn = default_alloc;
static void* alloc_user;
static atomic_llong byte_count;
// The most byte_count reached since the first of the running watches began (gt_alloc_watch_begin):
// a budgeted build's own peak, exact whatever the heap's layout or the host's memory.
static atomic_llong byte_peak;
static atomic_int watches;

void gtSetAllocator(gtAllocFcn* fcn, void* user)
{
	alloc_fcn = fcn ? fcn : default_alloc;
	alloc_user = fcn ? user : NULL;
}

int64_t gtGetByteCount(void)
{
	return (int64_t)atomic_load(&byte_count);
}

void* gt_realloc(void* ptr, size_t size)
{
	if (size == 0) size = 1; // a zero-size request still gets a distinct block, as malloc's may
	if (size > SIZE_MAX - sizeof(BlockHeader)) return NULL;
	BlockHeader* old = ptr ? (BlockHeader*)ptr - 1 : NULL;
	size_t old_size = old ? old->size : 0;
	BlockHeader* block = alloc_fcn(alloc_user, old, old ? old_size + sizeof *old : 0, size + sizeof *block);
	if (!block) return NULL;
	block->size = size;
	long long now = atomic_fetch_add(&byte_count, (long long)size - (long long)old_size) + (long long)size -
	                (long long)old_size;
	for (long long peak = atomic_load(&byte_peak); now > peak;)
		if (atomic_compare_exchange_weak(&byte_peak, &peak, now)) break;
	return block + 1;
}

size_t gt_block_size(const void* ptr)
{
	return ((const BlockHeader*)ptr - 1)->size;
}

void gt_advise_huge_block(void* ptr, size_t size)
{
	// A host's allocator places its blocks as it likes: its ranges are not ours to advise.
	if (ptr && alloc_fcn == default_alloc && size >= HUGE_BLOCK) gt_advise_huge_pages(ptr, size);
}

int64_t gt_alloc_watch_begin(void)
{
	long long now = atomic_load(&byte_count);
	if (atomic_fetch_add(&watches, 1) == 0) atomic_store(&byte_peak, now); // others running: keep theirs
	return (int64_t)now;
}

int64_t gt_alloc_watch_peak(void)
{
	return (int64_t)atomic_load(&byte_peak);
}

int64_t gt_alloc_watch_end(void)
{
	long long peak = atomic_load(&byte_peak);
	atomic_fetch_sub(&watches, 1);
	return (int64_t)peak;
}

void* gt_malloc(size_t size)
{
	return gt_realloc(NULL, size);
}

void* gt_calloc(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size) return NULL;
	void* p = gt_malloc(count * size);
	if (p) memset(p, 0, count * size);
	return p;
}

void gt_free(void* ptr)
{
	if (!ptr) return;
	BlockHeader* block = (BlockHeader*)ptr - 1;
	atomic_fetch_sub(&byte_count, (long long)block->size);
	alloc_fcn(alloc_user, block, block->size + sizeof *block, 0);
}

bool gt_grow(void** items, int64_t* capacity, int64_t needed, size_t item_size, int64_t first)
{
	if (needed <= *capacity) return true;
	int64_t cap = *capacity > 0 ? *capacity : first > 0 ? first : 16;
	while (cap < needed) {
		if (cap > INT64_MAX / 2) return false;
		cap *= 2;
	}
	if ((uint64_t)cap > SIZE_MAX / item_size) return false;
	void* grown = gt_realloc(*items, (size_t)cap * item_size);
	if (!grown) return false;
	*items = grown;
	*capacity = cap;
	return true;
}

bool gt_resize(void** items, int64_t count, size_t item_size)
{
	if (count < 0 || (uint64_t)count > SIZE_MAX / item_size) return false;
	void* resized = gt_realloc(*items, (size_t)count * item_size);
	if (!resized) return false;
	*items = resized;
	return true;
}
