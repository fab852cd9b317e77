// Separation (the `a` key): the script's layer that keeps agents apart with the straight-line
// neighbour index (demo.set_separation, demo.separation), and the spacing the run's summary
// reports: the mean distance from each agent to its nearest other agent, measured here in C with
// gt_neighbours.h independently of the script, so a test can see the layer work.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

void toggle_separation(Demo* d)
{
	lua_rawgeti(d->L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(d->L, -1, "set_separation");
	bool hook = lua_isfunction(d->L, -1);
	lua_pop(d->L, 2);
	if (!hook) return; // a script of the user's without the layer
	lua_pushboolean(d->L, !d->separation);
	if (call_demo(d->L, d->demo_ref, "set_separation", 1, 0)) d->separation = !d->separation;
	else d->failed = true;
}

static double number_in(lua_State* L, const char* name)
{
	lua_getfield(L, -1, name);
	double v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	return v;
}

// After demo.update: the script's figures of the layer (demo.separation), summed for the summary.
void read_separation(Demo* d)
{
	lua_State* L = d->L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(L, -1, "separation");
	if (lua_istable(L, -1) && d->separation) {
		d->sep.pairs = (int)number_in(L, "pairs");
		d->sep.pushed = (int)number_in(L, "pushed");
		d->sep.ms = number_in(L, "seconds") * 1e3;
		lua_getfield(L, -1, "method");
		snprintf(d->sep.method, sizeof d->sep.method, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "-");
		lua_pop(L, 1);
		d->sep.frames++;
		d->sep.total_ms += d->sep.ms;
		d->sep.total_pairs += d->sep.pairs;
	}
	lua_pop(L, 2);
}

// The mean over agents of the distance to the nearest other agent (demo.xs, demo.ys), by one
// gtNeighbours_QueryAll over the agents' bounding box (positions are in the map's units); -1 when
// it cannot be measured (fewer than 2 agents, no memory, a position not a number).
double mean_nearest_distance(Demo* d)
{
	lua_State* L = d->L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	int n = (int)agent_count(L, -2, -1);
	size_t room = (size_t)(n > 0 ? n : 1);
	double* p = malloc(sizeof *p * 2 * room);
	gtNeighbour* out = malloc(sizeof *out * room);
	int32_t* counts = malloc(sizeof *counts * room);
	double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, mean = -1;
	bool ok = n >= 2 && p && out && counts;
	for (int i = 0; ok && i < n; i++) {
		lua_rawgeti(L, -2, i + 1);
		lua_rawgeti(L, -2, i + 1);
		p[2 * i] = lua_tonumber(L, -2), p[2 * i + 1] = lua_tonumber(L, -1);
		lua_pop(L, 2);
		for (int a = 0; a < 2; a++) lo[a] = fmin(lo[a], p[2 * i + a]), hi[a] = fmax(hi[a], p[2 * i + a]);
		ok = isfinite(p[2 * i]) && isfinite(p[2 * i + 1]);
	}
	gtNeighbours* nb = NULL;
	gtNeighboursDef def = {.dimensions = 2, .size = {hi[0] - lo[0] + 1, hi[1] - lo[1] + 1}, .capacity = n};
	def.cell = sqrt(def.size[0] * def.size[1] * 2 / (n > 0 ? n : 1)); // about 2 agents a cell
	gtError err = {0};
	ok = ok && gtNeighbours_Create(&def, &nb, &err) == GT_OK;
	for (int i = 0; ok && i < n; i++) {
		gtNeighbourId id;
		ok = gtNeighbours_Add(nb, (double[]){p[2 * i] - lo[0], p[2 * i + 1] - lo[1]}, &id, &err) == GT_OK;
	}
	gtNeighboursAll all = {.radius = INFINITY, .k = 1, .out = out, .stride = 1, .counts = counts};
	if (ok && gtNeighbours_QueryAll(nb, &all, GT_NEIGHBOURS_AUTO, NULL, &err) == GT_OK) {
		double sum = 0;
		for (int i = 0; i < n; i++) sum += counts[i] ? out[i].distance : 0;
		mean = sum / n;
	} else if (n >= 2) {
		fprintf(stderr, "gridtree-demo: spacing: %s\n", err.message[0] ? err.message : "a position is not a number");
	}
	gtNeighbours_Destroy(nb);
	free(p), free(out), free(counts);
	lua_pop(L, 3);
	return mean;
}

void print_spacing(Demo* d)
{
	double frames = d->sep.frames ? d->sep.frames : 1;
	printf("separation %s\nseparation_frames %d\nseparation_pairs_per_frame %.1f\nseparation_ms_per_frame %.3f\n"
	       "mean_nearest_distance %.4f\n",
	       d->separation ? "on" : "off", d->sep.frames, d->sep.total_pairs / frames, d->sep.total_ms / frames,
	       mean_nearest_distance(d));
}
