// Files written whole or not at all: into PATH.tmp, renamed over PATH only when every byte got
// there (the map, index and mesh savers).
#ifndef GRIDTREE_SAVE_FILE_H
#define GRIDTREE_SAVE_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "gridtree/gt_base.h"

// Writes the file's contents into f; false when a write failed (ferror is checked as well).
typedef bool gtWriteContents(FILE* f, void* context);

gtStatus gt_save_file(const char* path, gtWriteContents* write, void* context, gtError* err);

#endif
