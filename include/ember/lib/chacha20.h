/* The ChaCha20 block function (RFC 8439, 2.3): 64 bytes of key stream from a 256-bit key,
 * a 32-bit block counter and a 96-bit nonce. Used by Ember's random number generator. */
#ifndef EMBER_CHACHA20_H
#define EMBER_CHACHA20_H

#include <efi/types.h>

#define CHACHA20_KEY_SIZE 32
#define CHACHA20_NONCE_SIZE 12
#define CHACHA20_BLOCK_SIZE 64

/* Writes the key-stream block number counter for key and nonce to out. */
void chacha20_block(const UINT8 key[CHACHA20_KEY_SIZE], UINT32 counter,
		    const UINT8 nonce[CHACHA20_NONCE_SIZE], UINT8 out[CHACHA20_BLOCK_SIZE]);

#endif
