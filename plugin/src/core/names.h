// Names of enum values (methods and the like), looked up both ways. Internal.
#ifndef GRIDTREE_CORE_NAMES_H
#define GRIDTREE_CORE_NAMES_H

#include <string.h>

// The name of `value`, or "unknown" outside the table.
static inline const char* gt_name_of(const char* const* names, unsigned count, unsigned value)
{
	return value < count ? names[value] : "unknown";
}

// The index of `name` in the table, or -1 (also for NULL).
static inline int gt_name_index(const char* const* names, unsigned count, const char* name)
{
	for (unsigned i = 0; name && i < count; i++)
		if (strcmp(name, names[i]) == 0) return (int)i;
	return -1;
}

#endif
