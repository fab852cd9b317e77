// The hub labels' search scratch and a repair's replay state (hub_labels.c), shared with the local
// repair of a search where its tree meets the edit (hub_labels_local.c). Internal.
#ifndef GRIDTREE_HUB_LABELS_SEARCH_H
#define GRIDTREE_HUB_LABELS_SEARCH_H

#include "core/heap.h"
#include "ehl/hub_labels_lists.h"

// A repair's lists hold only its searches' entries, a few per vertex: they take their room from the
// blocks of one arena (no allocation per list or per growth; a list that grows leaves its old slice)
// and are freed with it.
typedef struct ArenaBlock {
	struct ArenaBlock* next;
	Entry items[];
} ArenaBlock;

typedef struct Arena {
	ArenaBlock* head;
	int64_t used, size;
} Arena;

// One pruned search's scratch, reused root after root.
typedef struct Search {
	const gtVisGraph* g;
	EntryList* lists; // per vertex: its label so far
	double* to_root;  // T: root label distances by hub rank
	double* dist;
	int32_t *parent, *first, *visited;
	int32_t* labelled; // this search's labelled vertices, in pop order
	int nlabelled;
	gtHeap heap;
	double* key; // NULL: entries go into `lists`; else only recorded: key[i] is labelled[i]'s distance
	// A repair (old not NULL): `lists` hold the entries of the roots searched again only; a vertex's
	// entries of the roots copied (copied[old rank]) are its old ones (old_of), read in place.
	const gtHubLabels* old;
	const int32_t* old_of;
	const bool* copied;
	double* to_old; // per old rank: the root's distance to a hub copied (else +inf)
	int old_limit;  // old ranks from here on are not labelled yet: their old entries are not read
	Arena* arena;   // the room of a repair's lists (else NULL)
	// The first root copied (its old rank; -1: none yet, no old entry counts) and per vertex its
	// first old entry from that rank on: the roots before it were all searched again (the first
	// hubs' trees cross the edit), so the entries before are stale and not read.
	int first_copied;
	int64_t* old_start;
	// Per vertex (NULL: none): a link end ranked early, where the prune test allows a few ulps of the
	// key. The root's entry for the end and the walk to it add the same steps in other orders; a miss
	// by rounding would carry the search across the link (ranked ends on a test map: 8 of them).
	uint8_t* cut;
} Search;

// A repair's replay of the old searches (hub_labels.c, "labels after an edit").
typedef struct Replay {
	const gtHubLabelsEdit* edit;
	int64_t* begin; // old rank -> its old entries [begin[rank], begin[rank + 1]) of `entry`
	int64_t* entry;
	int32_t* owner; // per old entry: its old vertex
	bool* copied;   // old rank: its search was copied
	bool* changed;  // new vertex: its entries for the hubs done so far differ from the old ones
	bool* near;     // new vertex: some neighbour's did
	// New vertex: an entry of it for the hubs done so far was lost or got longer (worse), and some
	// neighbour's did (near_worse). Only such entries can uncover a pair an old search pruned.
	bool *worse, *near_worse;
	int32_t* stamp;   // new vertex: 1 + the rank whose search labelled it last
	int32_t* in_tree; // new vertex: == tree_stamp when the old search being checked labelled it
	int32_t* was_at;  // new vertex: 1 + the rank whose old search (note_changes) labelled it, at was[v]
	double* was;
	int32_t tree_stamp;
	// The hubs (ranks) of the entries the searches that ran made anew or with another distance, per
	// vertex: a chain from log_head through log_next. log_lost: no room for one (tests read all).
	int64_t *log_head, *log_next, log_count, log_capacity;
	int32_t* log_hub;
	bool log_lost;
	int next_old;        // old ranks below are accounted for (the vertices gone: their entries too)
	int32_t* worse_list; // the vertices marked worse, worse_count of them (hub_labels_local.c reads them)
	int worse_count;
	const int32_t* rank_of; // new vertex -> new rank, set for the roots labelled so far (the labels' own)
	struct HubLocal* local; // a local repair's scratch (NULL: none, every search not copied runs whole)
} Replay;

// Appends e; with an arena (not NULL) the list's room comes from it.
bool gt_hub_list_push(EntryList* list, Entry e, Arena* arena);
// The root's distances to the hubs before it into to_root (its searched entries, by rank) and
// to_old (its old entries of the roots copied, by old rank); `set` false: back to +inf.
void gt_hub_root_distances(Search* s, int root, bool set);
// Whether an earlier hub covers the pair (root, u) at `key`, the root's distances set: the prune test.
bool gt_hub_covered_at(const Search* s, int u, double key);
// The same in a repair for a vertex u the old search from the root labelled at `key` (then not
// covered): a pair of entries of a copied root (the old ones) sums as before, above `key`, and a
// lost entry covers nothing, so only u's entries of the roots searched again are read.
bool gt_hub_covered_by_searched(const Search* s, int u, double key);

// The local repair (hub_labels_local.c): the search of root `root` (new rank r, old rank old_rank)
// redone only where its old tree meets the edit. 1: done (its entries pushed, s->labelled set),
// 0: not done (the affected part too large: the caller searches whole), -1: out of memory.
struct HubLocal* gt_hub_local_create(int n);
void gt_hub_local_free(struct HubLocal* local);
int gt_hub_local_repair(Search* s, const Replay* rp, int r, int root, int old_rank);

#endif
