/* A virtual EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL (UEFI 2.10, 12.4) over every text output
 * device: the calls go to each device, the modes are those all of them can show
 * (splitter_modes.c), and the cursor is the first device's. */
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/text_out.h>
#include "splitter.h"

#define SPLITTER_OUT_SIGNATURE SIGNATURE_32('s', 'p', 'o', 'u')

static struct splitter_out *splitter_from(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct splitter_out *s;

	if (!this)
		return NULL;
	s = container_of(this, struct splitter_out, proto);
	return s->signature == SPLITTER_OUT_SIGNATURE ? s : NULL;
}

static const struct text_size *current_size(const struct splitter_out *s)
{
	return &s->table.mode[s->mode.Mode];
}

static void set_device_mode(struct splitter_out *s, UINT32 d, UINT32 mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;

	out->SetMode(out, s->table.map[d][mode]);
}

/* With no device at all the cursor still moves as OutputString says (12.4.3). */
static void track_cursor(struct splitter_out *s, const CHAR16 *text)
{
	UINT32 cols = current_size(s)->cols, rows = current_size(s)->rows;
	UINT32 col = (UINT32)s->mode.CursorColumn, row = (UINT32)s->mode.CursorRow;

	for (; *text; text++) {
		if (*text == CHAR_CARRIAGE_RETURN)
			col = 0;
		else if (*text == CHAR_LINEFEED)
			row = MIN(row + 1, rows - 1);
		else if (*text == CHAR_BACKSPACE)
			col = col ? col - 1 : 0;
		else if (*text == CHAR_TAB)
			col = text_out_tab_stop(col, cols);
		else if (*text >= 0x20 && ++col == cols)
			col = 0, row = MIN(row + 1, rows - 1);
	}
	s->mode.CursorColumn = (INT32)col;
	s->mode.CursorRow = (INT32)row;
}

static void copy_cursor(struct splitter_out *s)
{
	if (s->device_count) {
		s->mode.CursorColumn = s->devices[0].out->Mode->CursorColumn;
		s->mode.CursorRow = s->devices[0].out->Mode->CursorRow;
	}
}

/* Keeps the first error; otherwise a warning any device gave. */
static EFI_STATUS merge_status(EFI_STATUS so_far, EFI_STATUS status)
{
	if (EFI_ERROR(so_far) || status == EFI_SUCCESS)
		return so_far;
	return EFI_ERROR(status) || so_far == EFI_SUCCESS ? status : so_far;
}

static EFI_STATUS EFIAPI out_output_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!s || !string)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		status = merge_status(status, out->OutputString(out, string));
	}
	if (s->device_count)
		copy_cursor(s);
	else
		track_cursor(s, string);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_test_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!s || !string)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	for (UINT32 d = 0; d < s->device_count && !EFI_ERROR(status); d++)
		status = s->devices[d].out->TestString(s->devices[d].out, string);
	tpl_restore(old);
	return status;
}

static INT32 rebuild_modes(struct splitter_out *s);

/* Devices' modes can change behind the splitter's back (a graphics console follows its
 * GOP into another resolution): the table is made anew before it is used. */
static void refresh_modes(struct splitter_out *s)
{
	s->mode.Mode = MAX(rebuild_modes(s), 0);
}

static EFI_STATUS EFIAPI out_query_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode,
					UINTN *columns, UINTN *rows)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_UNSUPPORTED;
	EFI_TPL old;

	if (!s || !columns || !rows)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	refresh_modes(s);
	if (mode < s->table.count && s->table.mode[mode].valid) {
		*columns = s->table.mode[mode].cols;
		*rows = s->table.mode[mode].rows;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

/* Every device to the mode (which clears them), the cursor home (caller at TPL_NOTIFY). */
static void apply_mode(struct splitter_out *s, UINT32 mode)
{
	for (UINT32 d = 0; d < s->device_count; d++)
		set_device_mode(s, d, mode);
	s->mode.Mode = (INT32)mode;
	s->mode.CursorColumn = 0;
	s->mode.CursorRow = 0;
}

static EFI_STATUS EFIAPI out_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode)
{
	struct splitter_out *s = splitter_from(this);
	EFI_TPL old;

	if (!s)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	refresh_modes(s);
	if (mode >= s->table.count || !s->table.mode[mode].valid) {
		tpl_restore(old);
		return EFI_UNSUPPORTED;
	}
	apply_mode(s, (UINT32)mode);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI out_set_attribute(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN attribute)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!s)
		return EFI_INVALID_PARAMETER;
	if (attribute > 0x7f) /* bits 7 and up must be zero (12.4.7) */
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	for (UINT32 d = 0; d < s->device_count; d++)
		status = merge_status(
		    status, s->devices[d].out->SetAttribute(s->devices[d].out, attribute));
	s->mode.Attribute = (INT32)attribute;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_clear_screen(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!s)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	for (UINT32 d = 0; d < s->device_count; d++)
		status = merge_status(status, s->devices[d].out->ClearScreen(s->devices[d].out));
	s->mode.CursorColumn = 0;
	s->mode.CursorRow = 0;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_set_cursor_position(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
						 UINTN column, UINTN row)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!s)
		return EFI_INVALID_PARAMETER;
	if (column >= current_size(s)->cols || row >= current_size(s)->rows)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		status = merge_status(status, out->SetCursorPosition(out, column, row));
	}
	s->mode.CursorColumn = (INT32)column;
	s->mode.CursorRow = (INT32)row;
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN visible)
{
	struct splitter_out *s = splitter_from(this);
	EFI_TPL old;

	if (!s)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	/* A device that cannot hide its cursor is no reason to fail the others. */
	for (UINT32 d = 0; d < s->device_count; d++)
		s->devices[d].out->EnableCursor(s->devices[d].out, visible);
	s->mode.CursorVisible = visible;
	tpl_restore(old);
	return EFI_SUCCESS;
}

/* Reset may take a device back to its mode 0: put it in the splitter's mode again. */
static EFI_STATUS EFIAPI out_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN extended)
{
	struct splitter_out *s = splitter_from(this);
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (!s)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	for (UINT32 d = 0; d < s->device_count; d++) {
		EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;
		status = merge_status(status, out->Reset(out, extended));
		if ((UINT32)out->Mode->Mode != s->table.map[d][s->mode.Mode])
			set_device_mode(s, d, (UINT32)s->mode.Mode);
	}
	s->mode.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE;
	s->mode.CursorVisible = TRUE;
	s->mode.CursorColumn = 0;
	s->mode.CursorRow = 0;
	tpl_restore(old);
	return status;
}

/* ---- Devices coming and going (callers hold TPL_NOTIFY) ---- */

static void query_device(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, struct device_modes *m)
{
	m->count = out->Mode->MaxMode > 0 ? MIN((UINT32)out->Mode->MaxMode, SPLITTER_MAX_MODES) : 0;
	for (UINT32 i = 0; i < m->count; i++) {
		UINTN cols = 0, rows = 0;
		bool valid = !EFI_ERROR(out->QueryMode(out, i, &cols, &rows));
		m->mode[i] = (struct text_size){(UINT32)cols, (UINT32)rows, valid};
	}
}

/* Rebuilds the mode table; returns the new number of the current size, or -1 if that
 * size is gone. */
static INT32 rebuild_modes(struct splitter_out *s)
{
	struct device_modes modes[SPLITTER_MAX_DEVICES];
	struct text_size was = *current_size(s);

	for (UINT32 d = 0; d < s->device_count; d++)
		query_device(s->devices[d].out, &modes[d]);
	splitter_modes_build(&s->table, modes, s->device_count);
	s->mode.MaxMode = (INT32)s->table.count;
	return splitter_modes_find(&s->table, was.cols, was.rows);
}

/* A new device shows what the others show from now on (its screen starts empty). */
static void sync_device(struct splitter_out *s, UINT32 d)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = s->devices[d].out;

	set_device_mode(s, d, (UINT32)s->mode.Mode);
	out->SetAttribute(out, (UINTN)s->mode.Attribute);
	out->EnableCursor(out, s->mode.CursorVisible);
	out->SetCursorPosition(out, (UINTN)s->mode.CursorColumn, (UINTN)s->mode.CursorRow);
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

bool splitter_out_add(struct splitter_out *s, EFI_HANDLE handle,
		      EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, bool take_over)
{
	EFI_TPL old;
	INT32 mode;

	if (s->device_count == SPLITTER_MAX_DEVICES || !out->Mode)
		return false;
	old = tpl_raise(TPL_NOTIFY);
	s->devices[s->device_count++] = (struct splitter_out_device){handle, out};
	mode = rebuild_modes(s);
	if (!take_over) {
		s->mode.Mode = MAX(mode_of_device(s, out, mode), 0);
		copy_cursor(s);
	} else {
		if (mode >= 0)
			s->mode.Mode = mode;
		else
			apply_mode(s, 0); /* the others lose the size they had: start over */
		sync_device(s, s->device_count - 1);
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
		refresh_modes(s);
		copy_cursor(s);
		break;
	}
	tpl_restore(old);
}

static const EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL out_template = {
    .Reset = out_reset,
    .OutputString = out_output_string,
    .TestString = out_test_string,
    .QueryMode = out_query_mode,
    .SetMode = out_set_mode,
    .SetAttribute = out_set_attribute,
    .ClearScreen = out_clear_screen,
    .SetCursorPosition = out_set_cursor_position,
    .EnableCursor = out_enable_cursor,
};

EFI_STATUS splitter_out_create(struct splitter_out **out)
{
	static const EFI_GUID text_out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
	struct splitter_out *s = pool_alloc(sizeof(*s));
	EFI_STATUS status;

	if (!s)
		return EFI_OUT_OF_RESOURCES;
	s->signature = SPLITTER_OUT_SIGNATURE;
	s->proto = out_template;
	s->proto.Mode = &s->mode;
	s->mode.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE;
	s->mode.CursorVisible = TRUE;
	splitter_modes_build(&s->table, NULL, 0);
	s->mode.MaxMode = (INT32)s->table.count;
	status = protocol_install(&s->handle, &text_out_guid, &s->proto);
	if (EFI_ERROR(status)) {
		pool_free(s);
		return status;
	}
	*out = s;
	return EFI_SUCCESS;
}
