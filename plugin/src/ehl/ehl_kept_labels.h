// The hub labels an index keeps, and the map's label entries around a budget's retries.
#ifndef GT_EHL_KEPT_LABELS_H
#define GT_EHL_KEPT_LABELS_H

#include <stdbool.h>

#include "ehl/ehl_layout.h"
#include "ehl/hub_labels.h"

/// Copies the useful entries of L into e (label_offset, label_hub, label_parent, label_dist, vertex_of).
gtStatus gt_ehl_keep_labels(gtEhl* e, gtHubLabels* L, gtError* err);
/// Frees L's entries (not its offsets): nothing reads them once e keeps the useful ones.
void gt_ehl_drop_label_entries(gtHubLabels* L);
/// Puts e's kept entries back into L (the others blank and not useful); false when out of memory.
bool gt_ehl_restore_label_entries(gtHubLabels* L, const gtEhl* e);

#endif
