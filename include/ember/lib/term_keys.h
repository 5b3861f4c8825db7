/* Terminal input decoding: bytes from a terminal or a pipe (UTF-8 text, control
 * characters, xterm/vt220/rxvt/Linux-console escape sequences) to UEFI keys.
 * Pure logic: no libc, no core calls; the caller supplies the time. Used by ember-run's
 * console (platform/hosted/console_in.c) and the serial terminal (drivers/terminal). */
#ifndef EMBER_TERM_KEYS_H
#define EMBER_TERM_KEYS_H

#include <stdbool.h>
#include <efi/protocol/simple_text_input_ex.h>

/* Longest escape sequence kept whole; longer control sequences are skipped. */
#define TERM_KEYS_SEQ_MAX 16
/* Most keys one call can produce (an abandoned sequence turns into one key per byte). */
#define TERM_KEYS_OUT_MAX (TERM_KEYS_SEQ_MAX + 1)
/* How long an incomplete sequence may wait for its next byte (ESC alone is the Esc key). */
#define TERM_KEYS_TIMEOUT_NS (50 * 1000 * 1000ULL)

/* One decoded key: a scan code or a character, with the modifiers when the terminal
 * reported them (KeyShiftState has EFI_SHIFT_STATE_VALID then, else it is 0). */
struct term_key {
	UINT16 scan;
	CHAR16 unicode;
	UINT32 shift_state;
};

struct term_keys {
	UINT8 buf[TERM_KEYS_SEQ_MAX]; /* bytes of a sequence not complete yet */
	UINT8 len;
	bool after_cr;	     /* an LF right after a CR belongs to the same Enter */
	bool skipping_csi;   /* inside an overlong control sequence: drop to its final byte */
	UINT64 last_byte_ns; /* arrival of the newest byte */
	UINT64 cr_ns;	     /* arrival of the CR that after_cr refers to */
};

/* Starts a decoder with nothing pending. */
void term_keys_init(struct term_keys *d);

/* Feeds one byte that arrived at now_ns; writes the keys it completes to out
 * (room for TERM_KEYS_OUT_MAX) and returns their count. */
size_t term_keys_feed(struct term_keys *d, UINT8 byte, UINT64 now_ns, struct term_key *out);

/* True when bytes wait for the rest of a sequence. */
bool term_keys_pending(const struct term_keys *d);

/* Resolves what is pending when it has waited TERM_KEYS_TIMEOUT_NS by now_ns, or at once
 * when force is set (end of input): an incomplete sequence becomes its keys one byte at a
 * time (ESC alone is SCAN_ESC). Returns the count of keys written to out. */
size_t term_keys_flush(struct term_keys *d, UINT64 now_ns, bool force, struct term_key *out);

#endif
