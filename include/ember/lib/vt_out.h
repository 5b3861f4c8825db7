/* Text output for a VT100/ANSI terminal that speaks UTF-8: the bytes the SimpleTextOut
 * functions send down the wire (where the cursor goes is drivers/text_output's business).
 * Pure logic: bytes go to a sink the caller provides, so it is tested on the host. Used by
 * the serial terminal (drivers/terminal) and ember-run's console. */
#ifndef EMBER_VT_OUT_H
#define EMBER_VT_OUT_H

#include <stdbool.h>
#include <efi/types.h>

/* Bytes collected for one call and handed to write() in chunks. */
struct vt_sink {
	void (*write)(void *ctx, const UINT8 *bytes, size_t n);
	void *ctx;
	size_t len;
	UINT8 buf[256];
};

void vt_put(struct vt_sink *s, const void *bytes, size_t n);
/* A NUL-terminated string, and a number in decimal. */
void vt_put_str(struct vt_sink *s, const char *text);
void vt_put_num(struct vt_sink *s, UINT32 v);
/* Hands what is collected to the sink's write function. */
void vt_flush(struct vt_sink *s);

/* n UCS-2 characters as UTF-8 (a lone surrogate half as U+FFFD). */
void vt_put_ucs2(struct vt_sink *s, const CHAR16 *text, size_t n);

/* CUP: the terminal's cursor to a cell (0-based). */
void vt_goto(struct vt_sink *s, UINT32 col, UINT32 row);
/* SGR for a SimpleTextOut attribute; the spec's default (light grey on black) is the
 * terminal's own default colours. */
void vt_attribute(struct vt_sink *s, UINT32 attribute);
/* Clears the screen in the current colours and homes the cursor. */
void vt_clear(struct vt_sink *s);
void vt_show_cursor(struct vt_sink *s, bool visible);

#endif
