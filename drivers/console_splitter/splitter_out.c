/* A virtual EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) over every text output
 * device: the text output front end checks the calls and keeps the Mode, the operations
 * here pass them on to each device. The modes are those all devices can show
 * (splitter_modes.c); the cursor is the first device's. */
#define LOG_PREFIX "splitter: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include "splitter.h"
#include <ember/lib/guids.h>

static struct splitter_out *splitter_of(struct text_output *text)
{
	return container_of(text, struct splitter_out, text);
}

static void set_device_mode(struct splitter_out *s, UINT32 d, UINT32 mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;

	out->SetMode(out, s->table.map[d][mode]);
}

static void copy_cursor(struct splitter_out *s)
{
	if (s->device_count)
		text_output_moved(&s->text, (UINT32)s->devices[0].out->Mode->CursorColumn,
				  (UINT32)s->devices[0].out->Mode->CursorRow);
}

/* Keeps the first error; otherwise a warning any device gave. */
static EFI_STATUS merge_status(EFI_STATUS so_far, EFI_STATUS status)
{
	if (EFI_ERROR(so_far) || status == EFI_SUCCESS)
		return so_far;
	return EFI_ERROR(status) || so_far == EFI_SUCCESS ? status : so_far;
}

/* Rebuilds the mode table; returns the new number of the current size, or -1 if that
 * size is gone. Mode.MaxMode is for the caller to set (text_output_set_modes). */
static INT32 rebuild_modes(struct splitter_out *s)
{
	struct device_modes modes[SPLITTER_MAX_DEVICES];

	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		struct device_modes *m = &modes[d];

		m->count = out->Mode->MaxMode > 0
			       ? MIN((UINT32)out->Mode->MaxMode, SPLITTER_MAX_MODES)
			       : 0;
		for (UINT32 i = 0; i < m->count; i++) {
			UINTN cols = 0, rows = 0;
			bool valid = !EFI_ERROR(out->QueryMode(out, i, &cols, &rows));
			m->mode[i] = (struct text_size){(UINT32)cols, (UINT32)rows, valid};
		}
	}
	splitter_modes_build(&s->table, modes, s->device_count);
	return splitter_modes_find(&s->table, s->text.cols, s->text.rows);
}

/* ---- text_output_ops: each call goes to every device ---- */

static bool split_query_mode(struct text_output *text, UINT32 mode, UINT32 *cols, UINT32 *rows)
{
	const struct text_size *size = &splitter_of(text)->table.mode[mode];

	*cols = size->cols;
	*rows = size->rows;
	return size->valid;
}

/* Devices' modes can change behind the splitter's back (a graphics console follows its
 * GOP into another resolution): the table is made anew before it is used. */
static void split_refresh_modes(struct text_output *text)
{
	struct splitter_out *s = splitter_of(text);
	INT32 mode = rebuild_modes(s);

	text_output_set_modes(text, s->table.count, (UINT32)MAX(mode, 0));
}

/* The devices move their own cursors; with none the cursor still moves as OutputString
 * says (12.4.3). */
static EFI_STATUS split_output_string(struct text_output *text, const CHAR16 *string)
{
	struct splitter_out *s = splitter_of(text);
	EFI_STATUS status = EFI_SUCCESS;

	if (!s->device_count)
		return text_output_track(text, string);
	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		status = merge_status(status, out->OutputString(out, (CHAR16 *)string));
	}
	copy_cursor(s);
	return status;
}

static EFI_STATUS split_test_string(struct text_output *text, const CHAR16 *string)
{
	struct splitter_out *s = splitter_of(text);
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 d = 0; d < s->device_count && !EFI_ERROR(status); d++)
		status = s->devices[d].out->TestString(s->devices[d].out, (CHAR16 *)string);
	return status;
}

/* Every device to the mode, which clears it. */
static EFI_STATUS split_set_mode(struct text_output *text)
{
	struct splitter_out *s = splitter_of(text);

	for (UINT32 d = 0; d < s->device_count; d++)
		set_device_mode(s, d, (UINT32)text->mode.Mode);
	return EFI_SUCCESS;
}

static EFI_STATUS split_clear(struct text_output *text)
{
	struct splitter_out *s = splitter_of(text);
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 d = 0; d < s->device_count; d++)
		status = merge_status(status, s->devices[d].out->ClearScreen(s->devices[d].out));
	return status;
}

static EFI_STATUS split_set_attribute(struct text_output *text)
{
	struct splitter_out *s = splitter_of(text);
	UINTN attribute = (UINTN)text->mode.Attribute;
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 d = 0; d < s->device_count; d++)
		status = merge_status(
		    status, s->devices[d].out->SetAttribute(s->devices[d].out, attribute));
	return status;
}

static EFI_STATUS split_set_cursor(struct text_output *text)
{
	struct splitter_out *s = splitter_of(text);
	UINTN col = (UINTN)text->mode.CursorColumn, row = (UINTN)text->mode.CursorRow;
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		status = merge_status(status, out->SetCursorPosition(out, col, row));
	}
	return status;
}

/* A device that cannot hide its cursor is no reason to fail the others. */
static EFI_STATUS split_enable_cursor(struct text_output *text)
{
	struct splitter_out *s = splitter_of(text);

	for (UINT32 d = 0; d < s->device_count; d++)
		s->devices[d].out->EnableCursor(s->devices[d].out, text->mode.CursorVisible);
	return EFI_SUCCESS;
}

/* Reset may take a device back to its mode 0: put it in the splitter's mode again. */
static EFI_STATUS split_reset(struct text_output *text, bool extended)
{
	struct splitter_out *s = splitter_of(text);
	UINT32 mode = (UINT32)text->mode.Mode;
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		status = merge_status(status, out->Reset(out, extended));
		if ((UINT32)out->Mode->Mode != s->table.map[d][mode])
			set_device_mode(s, d, mode);
	}
	return status;
}

static const struct text_output_ops splitter_ops = {
    .query_mode = split_query_mode,
    .refresh_modes = split_refresh_modes,
    .output_string = split_output_string,
    .test_string = split_test_string,
    .set_mode = split_set_mode,
    .clear = split_clear,
    .set_attribute = split_set_attribute,
    .set_cursor = split_set_cursor,
    .enable_cursor = split_enable_cursor,
    .reset = split_reset,
};

/* ---- Devices coming and going ---- */

/* A new device shows what the others show from now on (its screen starts empty). */
static void sync_device(struct splitter_out *s, UINT32 d)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
	SIMPLE_TEXT_OUTPUT_MODE *mode = &s->text.mode;

	set_device_mode(s, d, (UINT32)mode->Mode);
	out->SetAttribute(out, (UINTN)mode->Attribute);
	out->EnableCursor(out, mode->CursorVisible);
	out->SetCursorPosition(out, (UINTN)mode->CursorColumn, (UINTN)mode->CursorRow);
}

bool splitter_out_has(const struct splitter_out *s, EFI_HANDLE handle)
{
	for (UINT32 d = 0; d < s->device_count; d++)
		if (s->devices[d].handle == handle)
			return true;
	return false;
}

/* The splitter mode showing the device's current size (a device shared with the other
 * virtual output is left as that one set it), else the current mode if still there. */
static INT32 mode_of_device(struct splitter_out *s, EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out,
			    INT32 current)
{
	UINTN cols, rows;

	if (!EFI_ERROR(out->QueryMode(out, (UINTN)out->Mode->Mode, &cols, &rows)) &&
	    splitter_modes_find(&s->table, (UINT32)cols, (UINT32)rows) >= 0)
		return splitter_modes_find(&s->table, (UINT32)cols, (UINT32)rows);
	return current;
}

/* A new device joins in the current mode; when it cannot show that size, every device
 * starts over in mode 0 (the others lose the size they had). */
static void take_over(struct splitter_out *s, INT32 mode)
{
	if (mode >= 0) {
		text_output_set_modes(&s->text, s->table.count, (UINT32)mode);
	} else {
		text_output_set_modes(&s->text, s->table.count, 0);
		split_set_mode(&s->text);
		text_output_moved(&s->text, 0, 0);
	}
	sync_device(s, s->device_count - 1);
}

bool splitter_out_add(struct splitter_out *s, EFI_HANDLE handle,
		      EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, bool take)
{
	EFI_TPL old;
	INT32 mode;

	if (s->device_count == SPLITTER_MAX_DEVICES || !out->Mode) {
		log_debug("%p: %s\n", handle, out->Mode ? "too many output devices" : "no Mode");
		return false;
	}
	old = tpl_raise(TPL_NOTIFY);
	s->devices[s->device_count++] = (struct splitter_out_device){handle, out};
	mode = rebuild_modes(s);
	if (take) {
		take_over(s, mode);
	} else {
		text_output_set_modes(&s->text, s->table.count,
				      (UINT32)MAX(mode_of_device(s, out, mode), 0));
		copy_cursor(s);
	}
	tpl_restore(old);
	return true;
}

void splitter_out_remove(struct splitter_out *s, EFI_HANDLE handle)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	for (UINT32 d = 0; d < s->device_count; d++) {
		if (s->devices[d].handle != handle)
			continue;
		s->devices[d] = s->devices[--s->device_count];
		/* Fewer devices only widen the choice: the current size stays. */
		split_refresh_modes(&s->text);
		copy_cursor(s);
		break;
	}
	tpl_restore(old);
}

EFI_STATUS splitter_out_create(struct splitter_out **out)
{
	struct splitter_out *s = pool_alloc(sizeof(*s));
	EFI_STATUS status;

	if (!s) {
		log_debug("no memory for a text output console\n");
		return EFI_OUT_OF_RESOURCES;
	}
	splitter_modes_build(&s->table, NULL, 0);
	text_output_init(&s->text, &splitter_ops, s->table.count, 0);
	status = protocol_install(&s->handle, &efi_simple_text_output_protocol_guid, &s->text.out);
	if (EFI_ERROR(status)) {
		log_debug("installing SimpleTextOut: %r\n", status);
		pool_free(s);
		return status;
	}
	*out = s;
	return EFI_SUCCESS;
}
