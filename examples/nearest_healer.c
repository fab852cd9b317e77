/*******************************************************************************************
 *
 *   gridtree example - the nearest healers, walking around the walls
 *
 *   Shows: a map, a navigation façade (gtNav) with an EHL index, a world (gtWorld) of agents
 *   tagged with keywords that walk gtNavQuery_Path paths with gtPath_Advance, and every few ticks
 *   the k agents tagged "healer" nearest to a wounded knight by walking distance.
 *
 *   Build from the repository root after `./run build`:
 *     cc -std=c11 -Iplugin/include examples/nearest_healer.c -Lbin -lgridtree -lm \
 *        -Wl,-rpath,"$PWD/bin" -o nearest_healer
 *   or after `./run install`:
 *     cc examples/nearest_healer.c $(pkg-config --cflags --libs gridtree) -lm -o nearest_healer
 *   Run: ./nearest_healer [MAP]      (default assets/maps/keep.map)
 *
 ********************************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gridtree/gridtree.h>

#define AGENTS 12
#define TICKS 60
#define QUERY_EVERY 20
#define K 3
#define SPEED 1.5 // map units per tick

typedef struct Kind {
	const char *role, *race;
} Kind;

typedef struct Agent {
	gtObjectId id;
	const Kind* kind;
	gtVec2 at;
	gtVec2* path; // gtNav_PathCapacity points, so gtNavQuery_Path never runs out of room
	int count, segment;
} Agent;

// Reports a failed call; returns true when it failed, so calls read `if (failed(...)) goto done;`.
static int failed(gtStatus status, const gtError* err, const char* what)
{
	if (status == GT_OK) return 0;
	fprintf(stderr, "%s failed (%s): %s\n", what, gtStatusName(status), err->message);
	return 1;
}

// A new goal for the agent: a random point of the free space that it can reach, and the path there.
static gtStatus new_goal(const gtMap* map, gtNavQuery* nq, gtRandom* rng, Agent* a, int capacity, gtError* err)
{
	for (int attempt = 0; attempt < 1000; attempt++) {
		gtVec2 goal;
		gtStatus st = gtMap_RandomPoint(map, rng, &goal, err);
		if (!st) st = gtNavQuery_Path(nq, a->at, goal, a->path, capacity, &a->count, NULL, err);
		if (st) return st;
		a->segment = 0;
		if (a->count > 0) return GT_OK; // else another room the agent cannot reach: try again
	}
	a->path[0] = a->at; // nowhere to go: stand still
	a->count = 1;
	a->segment = 0;
	return GT_OK;
}

int main(int argc, char** argv)
{
	// Initialization
	//--------------------------------------------------------------------------------------
	const char* path = argc > 1 ? argv[1] : "assets/maps/keep.map";
	static const Kind kinds[] = {{"knight", "human"}, {"healer", "elf"}, {"orc", "enemy"},
	                             {"healer", "human"}, {"archer", "elf"}, {"goblin", "enemy"}};
	gtError err = {0};
	gtMap* map = NULL;
	gtNav* nav = NULL;
	gtNavQuery* nq = NULL;
	gtWorld* world = NULL;
	Agent agents[AGENTS] = {{0}};
	int rc = 1;

	if (failed(gtMap_Load(path, &map, &err), &err, "gtMap_Load")) return 1;
	gtNavDef nav_def = gtNav_DefaultDef();
	if (failed(gtNav_Create(map, &nav_def, &nav, &err), &err, "gtNav_Create")) goto done;
	gtEhlDef ehl_def = gtEhl_DefaultDef(); // cell size 4, all cores; save it with gtNav_SaveIndex
	if (failed(gtNav_BuildIndex(nav, &ehl_def, &err), &err, "gtNav_BuildIndex")) goto done;
	if (failed(gtNavQuery_Create(nav, &nq, &err), &err, "gtNavQuery_Create")) goto done;
	gtDistance walking;
	if (failed(gtNavQuery_WorldDistance(nq, &walking, &err), &err, "gtNavQuery_WorldDistance")) goto done;
	gtWorldDef world_def = gtWorld_DefaultDef();
	if (failed(gtWorld_Create(map, &world_def, &world, &err), &err, "gtWorld_Create")) goto done;
	int32_t healer = gtWorld_Keyword(world, "healer"); // keywords are interned ids

	printf("map %s: %dx%d, navigation by %s\n", path, gtMap_Width(map), gtMap_Height(map),
	       gtNavMethod_Name(gtNav_Method(nav)));

	int capacity = gtNav_PathCapacity(nav);
	gtRandom rng = {2024};
	for (int i = 0; i < AGENTS; i++) {
		Agent* a = &agents[i];
		a->kind = &kinds[i % 6];
		a->path = malloc((size_t)capacity * sizeof *a->path);
		if (!a->path) {
			fprintf(stderr, "out of memory\n");
			goto done;
		}
		if (gtMap_RandomPoint(map, &rng, &a->at, &err)) {
			fprintf(stderr, "%s\n", err.message);
			goto done;
		}
		int32_t words[2] = {gtWorld_Keyword(world, a->kind->role), gtWorld_Keyword(world, a->kind->race)};
		if (healer < 0 || words[0] < 0 || words[1] < 0) { // a malformed word, or out of memory
			fprintf(stderr, "gtWorld_Keyword failed\n");
			goto done;
		}
		if (failed(gtWorld_Add(world, a->at, words, 2, &a->id, &err), &err, "gtWorld_Add")) goto done;
		if (failed(new_goal(map, nq, &rng, a, capacity, &err), &err, "gtNavQuery_Path")) goto done;
	}

	// Update: the game loop
	//--------------------------------------------------------------------------------------
	gtObjectId ids[AGENTS], found[K];
	gtVec2 points[AGENTS];
	double dist[K];
	for (int tick = 1; tick <= TICKS; tick++) {
		// Every agent walks on; one that arrived picks a new goal.
		for (int i = 0; i < AGENTS; i++) {
			Agent* a = &agents[i];
			a->at = gtPath_Advance(a->path, a->count, &a->segment, a->at, SPEED);
			if (a->segment >= a->count - 1 &&
			    failed(new_goal(map, nq, &rng, a, capacity, &err), &err, "gtNavQuery_Path"))
				goto done;
			ids[i] = a->id;
			points[i] = a->at;
		}
		// One call moves the whole frame; a bad entry would change nothing.
		if (failed(gtWorld_MoveMany(world, ids, points, AGENTS, &err), &err, "gtWorld_MoveMany")) goto done;

		if (tick % QUERY_EVERY) continue;
		// Query: the K healers nearest to the knight (agent 0), walking around the walls.
		gtQuery q = gtQuery_Default(agents[0].at);
		q.k = K;
		q.keywords = &healer;
		q.keyword_count = 1;
		int count = 0;
		gtQueryStats stats = {0};
		if (failed(gtWorld_Nearest(world, &q, walking, found, dist, K, &count, &stats, &err), &err, "gtWorld_Nearest"))
			goto done;
		printf("tick %d: knight at (%.1f, %.1f), %d nearest healers (%lld distance calls):\n", tick, q.point.x,
		       q.point.y, count, (long long)stats.distance_calls);
		for (int r = 0; r < count; r++) {
			const Agent* h = &agents[gtObjectId_Slot(found[r])]; // slots follow insertion here
			double dx = h->at.x - q.point.x, dy = h->at.y - q.point.y;
			printf("  %s %-6s at (%6.1f, %6.1f): walk %7.2f, straight line %7.2f\n", h->kind->race, h->kind->role,
			       h->at.x, h->at.y, dist[r], sqrt(dx * dx + dy * dy));
		}
	}
	rc = 0;

	// De-Initialization
	//--------------------------------------------------------------------------------------
done:
	for (int i = 0; i < AGENTS; i++) free(agents[i].path);
	gtWorld_Destroy(world);
	gtNavQuery_Destroy(nq); // every query of a nav goes before the nav
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	return rc;
}
