/* The ChaCha20 block function, written from RFC 8439 section 2.3. */
#include <ember/lib/chacha20.h>

static UINT32 rotl(UINT32 v, int n)
{
	return (v << n) | (v >> (32 - n));
}

static UINT32 load32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static void quarter_round(UINT32 *x, int a, int b, int c, int d)
{
	x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 16);
	x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 12);
	x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 8);
	x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 7);
}

void chacha20_block(const UINT8 key[CHACHA20_KEY_SIZE], UINT32 counter,
		    const UINT8 nonce[CHACHA20_NONCE_SIZE], UINT8 out[CHACHA20_BLOCK_SIZE])
{
	/* "expand 32-byte k" */
	UINT32 state[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
	UINT32 x[16];

	for (int i = 0; i < 8; i++)
		state[4 + i] = load32(key + 4 * i);
	state[12] = counter;
	for (int i = 0; i < 3; i++)
		state[13 + i] = load32(nonce + 4 * i);
	for (int i = 0; i < 16; i++)
		x[i] = state[i];
	for (int round = 0; round < 10; round++) {
		quarter_round(x, 0, 4, 8, 12);
		quarter_round(x, 1, 5, 9, 13);
		quarter_round(x, 2, 6, 10, 14);
		quarter_round(x, 3, 7, 11, 15);
		quarter_round(x, 0, 5, 10, 15);
		quarter_round(x, 1, 6, 11, 12);
		quarter_round(x, 2, 7, 8, 13);
		quarter_round(x, 3, 4, 9, 14);
	}
	for (int i = 0; i < 16; i++) {
		UINT32 v = x[i] + state[i];
		out[4 * i] = (UINT8)v;
		out[4 * i + 1] = (UINT8)(v >> 8);
		out[4 * i + 2] = (UINT8)(v >> 16);
		out[4 * i + 3] = (UINT8)(v >> 24);
	}
}
