#define LOG_PREFIX "browser: "
/* The forms browser's editors of ordered lists, dates and times (UEFI 2.10, 33.3.8.3.19,
 * .50, .80), on the bottom row like the other editors. An ordered list's entries are
 * chosen with Up/Down and moved with + and - (or PgUp and PgDn), as EDK2's browser does;
 * a date or time is edited field by field: + and - step the field, digits type it, Enter,
 * Tab or Right go to the next field, Left back, Enter on the last field keeps the value
 * and Esc drops it. A date or time kept in the real-time clock (QF_*_STORAGE_TIME, and the
 * wake-up alarm) is read when drawn and written when the user keeps a new value. */
#include "browser.h"
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

#define ATTR_EDIT EFI_TEXT_ATTR(EFI_BLACK, EFI_LIGHTGRAY)
#define ATTR_NORMAL EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK)
#define ORDERED_MAX 255
#define HALF (BROWSER_LINE_MAX / 2)

static size_t put(CHAR16 *out, size_t at, size_t units, const CHAR16 *text)
{
	while (*text && at + 1 < units)
		out[at++] = *text++;
	out[at] = 0;
	return at;
}

static size_t put_ascii(CHAR16 *out, size_t at, size_t units, const char *text)
{
	while (*text && at + 1 < units)
		out[at++] = (CHAR16)*text++;
	out[at] = 0;
	return at;
}

/* --- ordered lists --- */

/* The list's entries (up to the first 0, which ends a shorter list); their count. */
static size_t ordered_read(const struct browser *b, const struct ifr_statement *s, UINT64 *v)
{
	UINT8 *p = browser_storage(b, s);
	size_t n = 0;

	for (; p && s->width && n < s->containers; n++) {
		v[n] = 0;
		mem_copy(&v[n], p + n * s->width, s->width);
		if (!v[n])
			break;
	}
	return n;
}

static void option_name(struct browser *b, const struct ifr_statement *s, UINT64 value, CHAR16 *out)
{
	out[0] = 0;
	for (UINT16 i = 0; i < s->option_count; i++) {
		if (b->fs.options[s->first_option + i].value == value)
			browser_text(b, b->fs.options[s->first_option + i].text, out, HALF);
	}
}

/* "<a, b, c>", the entry `mark` (or none) in brackets. */
static void ordered_text(struct browser *b, const struct ifr_statement *s, const UINT64 *v,
			 size_t n, size_t mark, CHAR16 *out, size_t units)
{
	CHAR16 name[HALF];
	size_t at = put_ascii(out, 0, units, "<");

	for (size_t i = 0; i < n; i++) {
		option_name(b, s, v[i], name);
		at = put_ascii(out, at, units, i ? ", " : "");
		at = put_ascii(out, at, units, i == mark ? "[" : "");
		at = put(out, at, units, name);
		if (i == mark)
			at = put_ascii(out, at, units, "]");
	}
	put_ascii(out, at, units, ">");
}

/* Edits an ordered list on the bottom row. */
void browser_edit_ordered(struct browser *b, const struct ifr_statement *s)
{
	UINT64 v[ORDERED_MAX];
	UINT8 *p = browser_storage(b, s);
	size_t n = ordered_read(b, s, v), at = 0;
	CHAR16 line[BROWSER_LINE_MAX];
	EFI_INPUT_KEY key;

	if (!p || n < 2)
		return;
	put_ascii(line, 0, BROWSER_LINE_MAX,
		  "Up/Down choose  +/- or PgUp/PgDn move  Enter keep  Esc cancel");
	browser_put_line(b, b->rows - 3, line, ATTR_NORMAL);
	for (;;) {
		ordered_text(b, s, v, n, at, line, BROWSER_LINE_MAX);
		browser_put_line(b, b->rows - 2, line, ATTR_EDIT);
		if (!browser_read_key(&key) || key.ScanCode == SCAN_ESC)
			return;
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN)
			break;
		if ((key.ScanCode == SCAN_UP || key.ScanCode == SCAN_LEFT) && at)
			at--;
		else if ((key.ScanCode == SCAN_DOWN || key.ScanCode == SCAN_RIGHT) && at + 1 < n)
			at++;
		else if ((key.UnicodeChar == '+' || key.ScanCode == SCAN_PAGE_UP) && at) {
			UINT64 t = v[at - 1];

			v[at - 1] = v[at], v[at] = t, at--;
		} else if ((key.UnicodeChar == '-' || key.ScanCode == SCAN_PAGE_DOWN) &&
			   at + 1 < n) {
			UINT64 t = v[at + 1];

			v[at + 1] = v[at], v[at] = t, at++;
		}
	}
	for (size_t i = 0; i < n; i++)
		mem_copy(p + i * s->width, &v[i], s->width);
	b->dirty = true;
}

/* --- dates and times --- */

struct field {
	UINT32 value, min, max;
	UINT8 digits;
};

static bool in_rtc(const struct ifr_statement *s)
{
	return (s->flags & EFI_QF_DATE_STORAGE) != 0;
}

static EFI_STATUS rtc_get(const struct ifr_statement *s, EFI_TIME *t)
{
	EFI_RUNTIME_SERVICES *rt = core_st->RuntimeServices;
	BOOLEAN enabled, pending;

	*t = (EFI_TIME){.Year = 2000, .Month = 1, .Day = 1};
	if ((s->flags & EFI_QF_DATE_STORAGE) == QF_DATE_STORAGE_WAKEUP)
		return rt->GetWakeupTime(&enabled, &pending, t);
	return rt->GetTime(t, NULL);
}

static EFI_STATUS rtc_set(const struct ifr_statement *s, EFI_TIME *t)
{
	EFI_RUNTIME_SERVICES *rt = core_st->RuntimeServices;

	if ((s->flags & EFI_QF_DATE_STORAGE) == QF_DATE_STORAGE_WAKEUP)
		return rt->SetWakeupTime(TRUE, t);
	return rt->SetTime(t);
}

static UINT32 days_in(UINT32 year, UINT32 month)
{
	static const UINT8 days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	if (month < 1 || month > 12)
		return 31;
	return days[month - 1] + (month == 2 && leap);
}

/* The fields of the question's value: year, month, day or hour, minute, second. */
static void fields_read(struct browser *b, const struct ifr_statement *s, struct field *f)
{
	UINT64 v = browser_value(b, s);
	EFI_TIME t;

	if (in_rtc(s)) {
		rtc_get(s, &t);
		v = s->kind == IFR_DATE ? t.Year | (UINT64)t.Month << 16 | (UINT64)t.Day << 24
					: t.Hour | (UINT64)t.Minute << 8 | (UINT64)t.Second << 16;
	}
	if (s->kind == IFR_DATE) {
		f[0] = (struct field){(UINT32)(v & 0xffff), 1, 9999, 4};
		f[1] = (struct field){(UINT32)(v >> 16 & 0xff), 1, 12, 2};
		f[2] = (struct field){(UINT32)(v >> 24 & 0xff), 1, 31, 2};
	} else {
		f[0] = (struct field){(UINT32)(v & 0xff), 0, 23, 2};
		f[1] = (struct field){(UINT32)(v >> 8 & 0xff), 0, 59, 2};
		f[2] = (struct field){(UINT32)(v >> 16 & 0xff), 0, 59, 2};
	}
}

/* "[2026-01-15]" or "[12:30:45]", the field `mark` (3: none) in angle brackets; fields the
 * question's flags suppress are left out. */
static void fields_text(const struct ifr_statement *s, const struct field *f, int mark, CHAR16 *out,
			size_t units)
{
	size_t at = put_ascii(out, 0, units, "[");
	bool first = true;

	for (int i = 0; i < 3; i++) {
		char part[16];

		if (s->flags & (1u << i))
			continue;
		format_sn(part, sizeof(part), i == mark ? "%s<%0*u>" : "%s%0*u",
			  first			? ""
			  : s->kind == IFR_DATE ? "-"
						: ":",
			  f[i].digits, f[i].value);
		at = put_ascii(out, at, units, part);
		first = false;
	}
	put_ascii(out, at, units, "]");
}

/* The value column of an ordered list, a date or a time. */
void browser_edit_value_text(struct browser *b, const struct ifr_statement *s, CHAR16 *out,
			     size_t units)
{
	UINT64 v[ORDERED_MAX];
	struct field f[3];

	if (s->kind == IFR_ORDERED_LIST) {
		ordered_text(b, s, v, ordered_read(b, s, v), ORDERED_MAX, out, units);
		return;
	}
	fields_read(b, s, f);
	fields_text(s, f, 3, out, units);
}

/* Keeps the edited fields: in the clock, or as the question's value. */
static void fields_keep(struct browser *b, const struct ifr_statement *s, struct field *f)
{
	EFI_TIME t;
	EFI_STATUS status;

	if (s->kind == IFR_DATE && f[2].value > days_in(f[0].value, f[1].value))
		f[2].value = days_in(f[0].value, f[1].value);
	if (!in_rtc(s)) {
		browser_change(
		    b, s,
		    s->kind == IFR_DATE
			? f[0].value | (UINT64)f[1].value << 16 | (UINT64)f[2].value << 24
			: f[0].value | (UINT64)f[1].value << 8 | (UINT64)f[2].value << 16);
		return;
	}
	rtc_get(s, &t);
	if (s->kind == IFR_DATE)
		t.Year = (UINT16)f[0].value, t.Month = (UINT8)f[1].value, t.Day = (UINT8)f[2].value;
	else
		t.Hour = (UINT8)f[0].value, t.Minute = (UINT8)f[1].value,
		t.Second = (UINT8)f[2].value;
	status = rtc_set(s, &t);
	if (EFI_ERROR(status)) {
		log_debug("setting the clock: %r\n", status);
		b->message = "The clock refused the value.";
	}
}

/* A digit typed into a field: appended while it fits, else it starts the field again. */
static void type_digit(struct field *f, UINT32 digit, bool *typing)
{
	UINT32 v = *typing ? f->value * 10 + digit : digit;
	UINT32 limit = f->digits == 4 ? 9999 : 99;

	f->value = v > f->max || v > limit ? digit : v;
	*typing = true;
}

static void step_field(struct field *f, int direction)
{
	if (direction > 0)
		f->value = f->value >= f->max ? f->min : f->value + 1;
	else
		f->value = f->value <= f->min ? f->max : f->value - 1;
}

/* The next field the flags show, from `at` in a direction; -1 or 3 past the ends. */
static int next_field(const struct ifr_statement *s, int at, int direction)
{
	do
		at += direction;
	while (at >= 0 && at < 3 && (s->flags & (1u << at)));
	return at;
}

/* Edits a date or a time field by field on the bottom row. */
void browser_edit_date_time(struct browser *b, const struct ifr_statement *s)
{
	struct field f[3];
	CHAR16 line[BROWSER_LINE_MAX];
	EFI_INPUT_KEY key;
	int at = next_field(s, -1, 1);
	bool typing = false;

	fields_read(b, s, f);
	put_ascii(line, 0, BROWSER_LINE_MAX,
		  "+/- change  digits type  Enter/Tab next  Left back  Esc cancel");
	browser_put_line(b, b->rows - 3, line, ATTR_NORMAL);
	while (at >= 0 && at < 3) {
		size_t n =
		    put_ascii(line, 0, BROWSER_LINE_MAX, s->kind == IFR_DATE ? "Date: " : "Time: ");

		fields_text(s, f, at, line + n, BROWSER_LINE_MAX - n);
		browser_put_line(b, b->rows - 2, line, ATTR_EDIT);
		if (!browser_read_key(&key) || key.ScanCode == SCAN_ESC)
			return;
		if (key.UnicodeChar >= '0' && key.UnicodeChar <= '9') {
			type_digit(&f[at], key.UnicodeChar - '0', &typing);
			continue;
		}
		if (key.UnicodeChar == '+' || key.UnicodeChar == '-')
			step_field(&f[at], key.UnicodeChar == '+' ? 1 : -1);
		else if (key.ScanCode == SCAN_LEFT && next_field(s, at, -1) >= 0)
			at = next_field(s, at, -1);
		else if (key.UnicodeChar == CHAR_CARRIAGE_RETURN || key.UnicodeChar == CHAR_TAB ||
			 key.ScanCode == SCAN_RIGHT)
			at = next_field(s, at, 1);
		typing = false;
	}
	for (int i = 0; i < 3; i++)
		f[i].value = f[i].value < f[i].min ? f[i].min : f[i].value;
	fields_keep(b, s, f);
}
