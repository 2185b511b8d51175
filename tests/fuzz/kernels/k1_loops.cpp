#include "kernel_operator.h"

template <typename T> __aicore__ inline void Row(T r, T c) { (void)r; (void)c; }

__aicore__ inline int Grid(uint32_t rows, uint32_t cols)
{
	uint32_t probeStart_P = 0;
	for (uint32_t r = 0; r < rows; r++) {
		for (uint32_t c = 0; c < cols; c++)
			Row(r, c);
		Row(r, 0u);
	}
	uint32_t k = 0;
	while (k < rows) {
		Row(k, 1u);
		k += 2;
	}
	do {
		k--;
	} while (k > 0);
	if (rows == 0)
		return -1;
	switch (cols) {
	case 1: {
		Row(1u, 1u);
		break;
	}
	default:
		Row(2u, 2u);
	}
	return (int)probeStart_P;
}
