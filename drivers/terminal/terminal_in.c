/* Keys from a serial terminal: bytes read through SerialIo, decoded by lib/term_keys.c
 * (UTF-8, control characters, escape sequences) into SimpleTextIn/InEx keys. */
#include <ember/core/core.h>
#include <ember/lib/util.h>
#include "terminal.h"

static struct terminal *terminal_from_input(struct text_input *ti)
{
	return container_of(ti, struct terminal, input);
}

/* One byte if the UART has one waiting (SerialIo's Read would wait for it). */
static bool read_byte(EFI_SERIAL_IO_PROTOCOL *serial, UINT8 *byte)
{
	UINT32 control;
	UINTN size = 1;

	if (EFI_ERROR(serial->GetControl(serial, &control)) ||
	    (control & EFI_SERIAL_INPUT_BUFFER_EMPTY))
		return false;
	return !EFI_ERROR(serial->Read(serial, &size, byte)) && size == 1;
}

/* Reads while the queue has room for the most keys one byte can complete, then settles an
 * escape sequence that has waited long enough (ESC alone is the Esc key). */
static void terminal_poll(struct text_input *ti)
{
	struct terminal *t = terminal_from_input(ti);
	struct term_key keys[TERM_KEYS_OUT_MAX];
	UINT8 byte;

	while (text_input_room(ti) >= TERM_KEYS_OUT_MAX && read_byte(t->serial, &byte))
		text_input_push_term_keys(ti, keys,
					  term_keys_feed(&t->decoder, byte, core_time_ns(), keys));
	if (text_input_room(ti) >= TERM_KEYS_OUT_MAX)
		text_input_push_term_keys(
		    ti, keys, term_keys_flush(&t->decoder, core_time_ns(), false, keys));
}

static EFI_STATUS terminal_in_reset(struct text_input *ti, bool extended_verification)
{
	term_keys_init(&terminal_from_input(ti)->decoder);
	return EFI_SUCCESS;
}

static const struct text_input_ops terminal_input_ops = {
    .poll = terminal_poll,
    .reset = terminal_in_reset,
};

EFI_STATUS terminal_in_init(struct terminal *t)
{
	term_keys_init(&t->decoder);
	/* Watched all the time: a UART holds only a few bytes. */
	return text_input_init(&t->input, &terminal_input_ops, true);
}
