// CRC-32C (Castagnoli): detects every error burst up to 32 bits, so every single flipped byte of a
// saved index. Uses the SSE4.2 instruction when the CPU has it. Internal.
#ifndef GRIDTREE_CRC32C_H
#define GRIDTREE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

// Continues a CRC: start with 0, feed the pieces in order.
uint32_t gt_crc32c(uint32_t crc, const void* data, size_t length);

#endif
