#include <pthread.h>
#include <string.h>

#include "core/crc32c.h"

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
		table[0][i] = c;
	}
	for (int t = 1; t < 8; t++)
		for (int i = 0; i < 256; i++) table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

// Slicing-by-8: eight table lookups per 8 bytes.
static uint32_t crc_software(uint32_t crc, const unsigned char* p, size_t n)
{
	pthread_once(&table_once, make_table);
	while (n >= 8) {
		uint64_t word;
		memcpy(&word, p, 8);
		word ^= crc;
		crc = table[7][word & 0xff] ^ table[6][(word >> 8) & 0xff] ^ table[5][(word >> 16) & 0xff] ^
		      table[4][(word >> 24) & 0xff] ^ table[3][(word >> 32) & 0xff] ^ table[2][(word >> 40) & 0xff] ^
		      table[1][(word >> 48) & 0xff] ^ table[0][word >> 56];
		p += 8;
		n -= 8;
	}
	while (n--) crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("sse4.2"))) static uint32_t crc_hardware(uint32_t crc, const unsigned char* p, size_t n)
{
	uint64_t c = crc;
	while (n >= 8) {
		uint64_t word;
		memcpy(&word, p, 8);
		c = __builtin_ia32_crc32di(c, word);
		p += 8;
		n -= 8;
	}
	uint32_t c32 = (uint32_t)c;
	while (n--) c32 = __builtin_ia32_crc32qi(c32, *p++);
	return c32;
}
#endif

uint32_t gt_crc32c(uint32_t crc, const void* data, size_t length)
{
	crc = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("sse4.2")) return ~crc_hardware(crc, data, length);
#endif
	return ~crc_software(crc, data, length);
}
