// Replays inputs through a fuzz harness without libFuzzer: `./replay_TARGET FILE...` feeds each
// file to LLVMFuzzerTestOneInput once. Linked with the ordinary sanitizer build (gcc, ASan and
// UBSan), so `./run test` keeps every crash the fuzzers ever found fixed.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
	for (int i = 1; i < argc; i++) {
		FILE* f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		size_t capacity = 4096, size = 0, k;
		uint8_t* data = malloc(capacity);
		while (data && (k = fread(data + size, 1, capacity - size, f)) > 0) {
			size += k;
			if (size == capacity) {
				uint8_t* grown = realloc(data, capacity *= 2);
				if (!grown) free(data);
				data = grown;
			}
		}
		fclose(f);
		if (!data) {
			fprintf(stderr, "%s: out of memory\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
		printf("replayed %s (%zu bytes)\n", argv[i], size);
		fflush(stdout);
	}
	return 0;
}
