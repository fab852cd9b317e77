// A program that only loads an index and queries it. test_cli.sh links it against the static
// library and checks that none of the builder came along (the module layering keeps it out).
#include <stdio.h>

#include "gridtree/gridtree.h"

int main(int argc, char** argv)
{
	if (argc != 3) return 2;
	gtMap* map;
	gtEhl* ehl;
	gtEhlQuery* query;
	gtError err;
	if (gtMap_Load(argv[1], &map, &err) || gtEhl_Load(map, argv[2], &ehl, &err) ||
	    gtEhlQuery_Create(ehl, &query, &err)) {
		fprintf(stderr, "%s\n", err.message);
		return 1;
	}
	double d;
	gtVec2 s = {0, 0}, t = {6, 0};
	if (gtEhl_Distance(query, s, t, &d, &err)) fprintf(stderr, "%s\n", err.message);
	printf("%.6f\n", d);
	gtEhlQuery_Destroy(query);
	gtEhl_Destroy(ehl);
	gtMap_Destroy(map);
	return 0;
}
