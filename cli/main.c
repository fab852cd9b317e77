// gridtree: command-line front end. Output is `key value` lines or one result per input line.
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE* out)
{
	fprintf(out,
	        "usage: gridtree COMMAND [ARGS]\n"
	        "\n"
	        "  info MAP [--threads N]           map statistics as 'key value' lines\n"
	        "  dist MAP [--ehl FILE]            read 'sx sy tx ty' lines on stdin, print one distance\n"
	        "                                   per line (%%.9f, 'inf' if unreachable, 'invalid' if a\n"
	        "                                   point is not in the free space)\n"
	        "  path MAP [--ehl FILE]            same input; print 'x0 y0 x1 y1 ...' per line\n"
	        "  scen MAP SCENFILE [--ehl FILE] [--path 1]\n"
	        "                                   run a MovingAI scenario; print queries, over_octile, mean_us\n"
	        "  ehl-build MAP -o FILE [--cell g | --budget MB] [--threads N]\n"
	        "                                   build and save an EHL index; print its statistics\n"
	        "  ehl-verify MAP FILE [--samples N] [--seed S]\n"
	        "                                   compare an index's distances and paths with the exact oracle\n"
	        "  workload MAP --keywords FILE --seed S -o DIR [--density 0.01] [--mobility 0.7] [--timestamps 50]\n"
	        "           [--queries 100] [--k 3] [--query-keywords 2] [--clusters x] [--churn p] [--ehl FILE]\n"
	        "                                   write a moving-object workload (objects, updates, queries)\n"
	        "  bench-knn MAP --ehl FILE [--method M] --workload DIR [--leaf m] [--check N]\n"
	        "                                   replay a workload on the Grid Tree; print timings and counts\n"
	        "  knn MAP [--ehl FILE] [--mesh FILE] [--method M|gt|ier-ehl|ier-polyanya|interval|brute]\n"
	        "          --objects OBJ --queries Q [--leaf m]\n"
	        "                                   OBJ lines 'id x y kw ...', Q lines 'x y k kw ...';\n"
	        "                                   print 'id:dist ...' per query (oracle without --ehl)\n"
	        "  crowd MAP [--ehl FILE] --objects OBJ --queries Q [--method each|batch|field|auto] [--threads N]\n"
	        "        [--leaf m]                 the knn queries answered as batches, printed the same way\n"
	        "  bench-crowd MAP --ehl FILE [--agents N] [--objects N] [--k K] [--frames F] [--threads T]\n"
	        "                                   every agent's k nearest enemies each frame, by every method\n"
	        "  bench-edits MAP --ehl FILE [--edits N] [--queries N] [--seed S]\n"
	        "                                   what map edits cost: walls built, doors closed, walls removed\n"
	        "  genmap --style rooms|caves|arena --width W --height H --seed S -o FILE\n"
	        "                                   write a generated MovingAI map\n"
	        "  mesh-build MAP -o FILE            write a navigation mesh of the map (Polyanya .mesh)\n"
	        "  bench-peers MAP --ehl FILE [--mesh FILE] --workload DIR\n"
	        "                                   the Grid Tree beside IER, the interval heuristic and brute force\n"
	        "  inflate MAP --clearance R -o FILE\n"
	        "                                   write the map for agents of half-width R cells: every cell\n"
	        "                                   within R (Chebyshev) of a wall or the border becomes a wall\n"
	        "  version                          print the version\n"
	        "\n"
	        "dist, path, scen, knn and bench-knn take --method auto|ehl|oracle|euclid|polyanya: auto (the default)\n"
	        "is the index given with --ehl FILE, else the brute-force oracle; polyanya takes --mesh FILE (a .mesh;\n"
	        "without it, one is made from the map).\n"
	        "  tiled-export MAP -o FILE.tmx|FILE.tmj [--encoding csv|base64|xml] [--compression none|zlib|gzip|zstd]\n"
	        "               [--chunk N --origin X,Y] [--tileset embedded|external] [--blocked layer|property]\n"
	        "               [--tile W,H] [--objects OBJ]\n"
	        "                                   write the map as a Tiled map (objects from a knn OBJ file)\n"
	        "\n"
	        "dist, path, scen, knn and crowd take --edits FILE: 'block x0 y0 x1 y1' / 'free x0 y0 x1 y1' lines\n"
	        "(inclusive cell rectangles) applied in order to the map and its index first.\n"
	        "A MAP is a MovingAI .map or a Tiled .tmx, .tmj or .json (--blocked-layer NAME or\n"
	        "--blocked-property NAME choose its walls).\n"
	        "Every command that takes a MAP takes --clearance R: the map as inflate writes it.\n"
	        "--threads N sets the worker threads for building and for crowd's batches (default: all cores).\n");
}

int main(int argc, char** argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	const char* command = argv[1];
	static const struct {
		const char* name;
		int (*run)(int, char**);
	} commands[] = {
	    {"info", cmd_info}, {"dist", cmd_dist}, {"path", cmd_path}, {"scen", cmd_scen}, {"genmap", cmd_genmap},
	    {"inflate", cmd_inflate}, {"mesh-build", cmd_mesh_build}, {"bench-peers", cmd_bench_peers}, {"tiled-export", cmd_tiled_export},
	    {"ehl-build", cmd_ehl_build}, {"workload", cmd_workload}, {"knn", cmd_knn}, {"bench-knn", cmd_bench_knn},
	    {"crowd", cmd_crowd}, {"bench-crowd", cmd_bench_crowd}, {"bench-edits", cmd_bench_edits},
	    {"ehl-verify", cmd_ehl_verify},
	};
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(command, commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
	if (strcmp(command, "help") == 0 || strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0) {
		usage(stdout);
		return CLI_OK;
	}
	if (strcmp(command, "version") == 0 || strcmp(command, "--version") == 0) {
		printf("%s\n", gtVersionString());
		return CLI_OK;
	}
	fprintf(stderr, "gridtree: unknown command '%s'\n\n", command);
	usage(stderr);
	return CLI_USAGE;
}
