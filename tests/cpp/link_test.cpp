// A C++ program using gridtree through the installed headers and shared library: the headers'
// extern "C" blocks must make every call link. Run by tests/test_install.sh; prints "ok" lines.
#include <gridtree/gridtree.h>

#include <cmath>
#include <cstdio>
#include <cstring>

static int fail(const char* what, const gtError& err)
{
	std::fprintf(stderr, "%s: %s\n", what, err.message);
	return 1;
}

int main(int argc, char** argv)
{
	const char* path = argc > 1 ? argv[1] : "assets/maps/small.map";
	gtError err = {};
	std::printf("version %s\n", gtVersionString());

	gtMap* map = nullptr;
	if (gtMap_Load(path, &map, &err) != GT_OK) return fail("gtMap_Load", err);
	std::printf("ok map %dx%d\n", gtMap_Width(map), gtMap_Height(map));

	// Distances through the navigation façade (the oracle: no index built).
	gtNav* nav = nullptr;
	gtNavDef def = gtNav_DefaultDef();
	if (gtNav_Create(map, &def, &nav, &err) != GT_OK) return fail("gtNav_Create", err);
	gtNavQuery* query = nullptr;
	if (gtNavQuery_Create(nav, &query, &err) != GT_OK) return fail("gtNavQuery_Create", err);
	gtVec2 a = {0, 0}, b = {0, 0};
	// The first and last free cells' centres: reachable or not, the answer is a distance or +inf.
	for (int y = 0; y < gtMap_Height(map); y++)
		for (int x = 0; x < gtMap_Width(map); x++)
			if (!gtMap_IsBlocked(map, x, y)) {
				if (a.x == 0 && a.y == 0) a = gtVec2{x + 0.5, y + 0.5};
				b = gtVec2{x + 0.5, y + 0.5};
			}
	double d = 0;
	if (gtNavQuery_Distance(query, a, b, &d, &err) != GT_OK) return fail("gtNavQuery_Distance", err);
	double straight = std::hypot(b.x - a.x, b.y - a.y);
	if (!(d >= straight - 1e-9)) {
		std::fprintf(stderr, "distance %f below the straight line %f\n", d, straight);
		return 1;
	}
	std::printf("ok distance %.3f (straight line %.3f) by %s\n", d, straight, gtNavMethod_Name(gtNav_Method(nav)));

	// An error comes back as a status and a message, not an exception or a crash.
	gtVec2 off = {-5, -5};
	if (gtNavQuery_Distance(query, off, b, &d, &err) != GT_ERR_INVALID_POINT || std::strlen(err.message) == 0) {
		std::fprintf(stderr, "a point off the map was accepted\n");
		return 1;
	}
	std::printf("ok error %s: %s\n", gtStatusName(err.status), err.message);

	gtNavQuery_Destroy(query);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	std::printf("ok bytes held %lld\n", static_cast<long long>(gtGetByteCount()));
	return gtGetByteCount() == 0 ? 0 : 1;
}
