// The table of distance backends: the one place that lists them. A new backend is one
// backend_*.c file, its gtNavMethod value and one line here (docs/backends.md).
#include <stdio.h>
#include <string.h>

#include "core/status.h"
#include "nav/nav_backend.h"

extern const NavBackend nav_backend_ehl, nav_backend_oracle, nav_backend_euclid, nav_backend_polyanya;

static const NavBackend* const BACKENDS[GT_NAV_METHOD_COUNT] = {
    [GT_NAV_EHL] = &nav_backend_ehl,
    [GT_NAV_ORACLE] = &nav_backend_oracle,
    [GT_NAV_EUCLID] = &nav_backend_euclid,
    [GT_NAV_POLYANYA] = &nav_backend_polyanya,
};

static const char AUTO_NAME[] = "auto";

const NavBackend* nav_backend(gtNavMethod method)
{
	return (unsigned)method < GT_NAV_METHOD_COUNT ? BACKENDS[method] : NULL;
}

bool nav_backend_ready(const gtNav* nav, gtNavMethod method)
{
	const NavBackend* b = nav_backend(method);
	return !b || !b->ready || b->ready(nav);
}

// The first automatic backend in the table that has what it needs.
static gtNavMethod auto_method(const gtNav* nav)
{
	for (int m = 0; m < GT_NAV_METHOD_COUNT; m++)
		if (BACKENDS[m] && (BACKENDS[m]->caps & NAV_CAP_AUTO) && (!BACKENDS[m]->ready || BACKENDS[m]->ready(nav)))
			return (gtNavMethod)m;
	return GT_NAV_ORACLE; // the table always has a ready automatic backend; this only keeps the compiler sure
}

void nav_choose_backend(gtNav* nav)
{
	nav->method = nav->def.method != GT_NAV_AUTO ? nav->def.method : auto_method(nav);
	nav->backend = BACKENDS[nav->method];
}

const char* gtNavMethod_Name(gtNavMethod method)
{
	if (method == GT_NAV_AUTO) return AUTO_NAME;
	const NavBackend* b = nav_backend(method);
	return b ? b->name : "unknown";
}

int gtNavMethod_Names(char* out, int size, const char* separator)
{
	int length = 0;
	for (int m = 0; m < GT_NAV_METHOD_COUNT; m++) {
		if (m > 0 && !BACKENDS[m]) continue;
		int n = snprintf(out && length < size ? out + length : NULL, out && length < size ? (size_t)(size - length) : 0,
		                 "%s%s", m > 0 ? separator : "", gtNavMethod_Name((gtNavMethod)m));
		length += n;
	}
	if (out && size > 0 && length >= size) out[size - 1] = '\0';
	return length;
}

gtStatus gtNavMethod_Parse(const char* name, gtNavMethod* method, gtError* err)
{
	for (int m = 0; name && m < GT_NAV_METHOD_COUNT; m++)
		if ((m == GT_NAV_AUTO || BACKENDS[m]) && strcmp(name, gtNavMethod_Name((gtNavMethod)m)) == 0) {
			*method = (gtNavMethod)m;
			return GT_OK;
		}
	char names[256];
	gtNavMethod_Names(names, sizeof names, ", ");
	return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method '%s' (available: %s)", name ? name : "(null)", names);
}

unsigned gtNavMethod_Caps(gtNavMethod method)
{
	if (method == GT_NAV_AUTO) { // what every automatic choice does, and the data any of them uses
		unsigned all = ~0u, any = 0;
		for (int m = 0; m < GT_NAV_METHOD_COUNT; m++)
			if (BACKENDS[m] && (BACKENDS[m]->caps & NAV_CAP_AUTO)) all &= BACKENDS[m]->caps, any |= BACKENDS[m]->caps;
		unsigned uses = GT_NAV_CAP_USES_INDEX | GT_NAV_CAP_USES_MESH,
		         needs = GT_NAV_CAP_NEEDS_INDEX | GT_NAV_CAP_NEEDS_MESH;
		return (all & ~(uses | needs | NAV_CAP_AUTO)) | (any & uses);
	}
	const NavBackend* b = nav_backend(method);
	return b ? b->caps & ~(unsigned)NAV_CAP_AUTO : 0;
}
