/* EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL entry points (UEFI 2.10, 12.4) over a device's
 * text_output_ops: arguments checked in the order the spec lists the statuses, the Mode
 * kept here, only valid requests passed on. Calls run at TPL_NOTIFY so that output from
 * an event cannot cut into a call in progress. */
#include <ember/core/core.h>
#include <ember/lib/text_out.h>
#include <ember/lib/util.h>
#include "text_output_internal.h"

#define TEXT_OUTPUT_SIGNATURE SIGNATURE_32('t', 'x', 'o', 'u')

struct text_output *text_output_from(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out)
{
	struct text_output *t;

	if (!out)
		return NULL;
	t = container_of(out, struct text_output, out);
	return t->signature == TEXT_OUTPUT_SIGNATURE ? t : NULL;
}

/* The start of a call that involves the device: TPL_NOTIFY, and the device catches up. */
static EFI_TPL begin(struct text_output *t)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	if (t->ops->sync)
		t->ops->sync(t);
	return old;
}

/* Its end: the device's flush, whose error wins over a success or a warning. */
static EFI_STATUS end(struct text_output *t, EFI_TPL old, EFI_STATUS status)
{
	if (t->ops->flush) {
		EFI_STATUS flushed = t->ops->flush(t);

		if (EFI_ERROR(flushed) && !EFI_ERROR(status))
			status = flushed;
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS call(EFI_STATUS (*op)(struct text_output *t), struct text_output *t)
{
	return op ? op(t) : EFI_SUCCESS;
}

static bool has_text_mode(const struct text_output *t)
{
	return t->mode.Mode >= 0;
}

static void home(struct text_output *t)
{
	t->mode.CursorColumn = 0;
	t->mode.CursorRow = 0;
}

/* The size of mode; false when it is not one SetMode takes. */
static bool mode_size(struct text_output *t, UINTN mode, UINT32 *cols, UINT32 *rows)
{
	if (mode >= (UINTN)t->mode.MaxMode)
		return false;
	return t->ops->query_mode(t, (UINT32)mode, cols, rows);
}

static void refresh_modes(struct text_output *t)
{
	if (t->ops->refresh_modes)
		t->ops->refresh_modes(t);
}

/* ---- The protocol ---- */

static EFI_STATUS default_reset(struct text_output *t)
{
	EFI_STATUS status = call(t->ops->set_attribute, t);

	if (!EFI_ERROR(status))
		status = call(t->ops->enable_cursor, t);
	if (!EFI_ERROR(status))
		status = call(t->ops->clear, t);
	return status;
}

/* 12.4.2: default colours, the cursor shown at (0,0), the screen cleared; the mode stays. */
static EFI_STATUS EFIAPI out_reset(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN extended)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status = EFI_DEVICE_ERROR;
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	t->mode.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE;
	t->mode.CursorVisible = TRUE;
	if (has_text_mode(t)) {
		home(t);
		status = t->ops->reset ? t->ops->reset(t, extended) : default_reset(t);
	}
	return end(t, old, status);
}

static EFI_STATUS EFIAPI out_output_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!t || !string)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	if (!has_text_mode(t))
		status = EFI_UNSUPPORTED; /* "not currently in a defined text mode" (12.4.3) */
	else if (t->ops->output_string)
		status = t->ops->output_string(t, string);
	else
		status = text_output_write(t, t->ops, string);
	return end(t, old, status);
}

static EFI_STATUS EFIAPI out_test_string(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, CHAR16 *string)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!t || !string)
		return EFI_INVALID_PARAMETER;
	status = text_output_test(string);
	if (EFI_ERROR(status) || !t->ops->test_string)
		return status;
	old = tpl_raise(TPL_NOTIFY);
	status = t->ops->test_string(t, string);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI out_query_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode,
					UINTN *columns, UINTN *rows)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status = EFI_UNSUPPORTED;
	UINT32 c, r;
	EFI_TPL old;

	if (!t || !columns || !rows)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	refresh_modes(t);
	if (mode_size(t, mode, &c, &r)) {
		*columns = c;
		*rows = r;
		status = EFI_SUCCESS;
	}
	return end(t, old, status);
}

/* 12.4.5: the new geometry, cleared in the current colours, the cursor at (0,0). */
static EFI_STATUS EFIAPI out_set_mode(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN mode)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status = EFI_UNSUPPORTED;
	UINT32 c, r;
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	refresh_modes(t);
	if (mode_size(t, mode, &c, &r)) {
		t->mode.Mode = (INT32)mode;
		t->cols = c;
		t->rows = r;
		home(t);
		status = call(t->ops->set_mode ? t->ops->set_mode : t->ops->clear, t);
	}
	return end(t, old, status);
}

static EFI_STATUS EFIAPI out_set_attribute(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, UINTN attribute)
{
	struct text_output *t = text_output_from(this);
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	/* Bits 7 and up "must be zero" (12.4.7): refused, as other firmware does. */
	if (attribute > 0x7f)
		return EFI_UNSUPPORTED;
	old = begin(t);
	t->mode.Attribute = (INT32)attribute;
	return end(t, old, call(t->ops->set_attribute, t));
}

static EFI_STATUS EFIAPI out_clear_screen(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status = EFI_UNSUPPORTED; /* not in a valid text mode (12.4.8) */
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	if (has_text_mode(t)) {
		home(t);
		status = call(t->ops->clear, t);
	}
	return end(t, old, status);
}

static EFI_STATUS EFIAPI out_set_cursor_position(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this,
						 UINTN column, UINTN row)
{
	struct text_output *t = text_output_from(this);
	EFI_STATUS status = EFI_UNSUPPORTED;
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	/* Without a text mode the size is 0 x 0: every position is refused (12.4.9). */
	if (column < t->cols && row < t->rows) {
		t->mode.CursorColumn = (INT32)column;
		t->mode.CursorRow = (INT32)row;
		status = call(t->ops->set_cursor, t);
	}
	return end(t, old, status);
}

static EFI_STATUS EFIAPI out_enable_cursor(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *this, BOOLEAN visible)
{
	struct text_output *t = text_output_from(this);
	EFI_TPL old;

	if (!t)
		return EFI_INVALID_PARAMETER;
	old = begin(t);
	t->mode.CursorVisible = visible ? TRUE : FALSE;
	return end(t, old, call(t->ops->enable_cursor, t));
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

/* ---- For the device ---- */

void text_output_init(struct text_output *t, const struct text_output_ops *ops, UINT32 max_mode,
		      UINT32 mode)
{
	t->signature = TEXT_OUTPUT_SIGNATURE;
	t->out = out_template;
	t->out.Mode = &t->mode;
	t->mode = (SIMPLE_TEXT_OUTPUT_MODE){.Attribute = TEXT_OUT_DEFAULT_ATTRIBUTE,
					    .CursorVisible = TRUE};
	t->ops = ops;
	text_output_set_modes(t, max_mode, mode);
}

void text_output_fini(struct text_output *t)
{
	t->signature = 0;
}

void text_output_moved(struct text_output *t, UINT32 col, UINT32 row)
{
	t->mode.CursorColumn = (INT32)(col < t->cols ? col : t->cols ? t->cols - 1 : 0);
	t->mode.CursorRow = (INT32)(row < t->rows ? row : t->rows ? t->rows - 1 : 0);
}

void text_output_set_modes(struct text_output *t, UINT32 max_mode, UINT32 mode)
{
	UINT32 cols = 0, rows = 0;

	t->mode.MaxMode = (INT32)max_mode;
	if (mode < max_mode && t->ops->query_mode(t, mode, &cols, &rows))
		t->mode.Mode = (INT32)mode;
	else
		t->mode.Mode = -1; /* no valid text mode (12.4) */
	t->cols = t->mode.Mode < 0 ? 0 : cols;
	t->rows = t->mode.Mode < 0 ? 0 : rows;
	text_output_moved(t, (UINT32)t->mode.CursorColumn, (UINT32)t->mode.CursorRow);
}
