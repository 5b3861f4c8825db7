/* What a mount lost or skipped, in words for the user: the firmware logs it as a warning
 * (and shows it on the QEMU console), ember-varstore prints it. */
#include "format.h"
#include <ember/lib/format.h>

struct text {
	char *buf;
	UINTN size, length;
};

/* Appends one clause, with "; " before all but the first. */
static void clause(struct text *t, const char *fmt, UINT32 n)
{
	UINTN at = MIN(t->length, t->size ? t->size - 1 : 0);

	if (t->length)
		t->length += format_sn(t->buf + at, t->size - at, "; ");
	at = MIN(t->length, t->size ? t->size - 1 : 0);
	t->length += format_sn(t->buf + at, t->size - at, fmt, n);
}

UINTN vstore_report_text(const struct vstore_report *r, char *text, UINTN size)
{
	struct text t = {text, size, 0};

	if (size)
		text[0] = 0;
	if (r->reformatted)
		clause(&t,
		       "the store could not be read and has been formatted again; "
		       "non-volatile variables were lost",
		       0);
	if (r->damaged)
		clause(&t, "%u damaged record(s) skipped (their variables keep older values)",
		       r->damaged);
	if (r->garbage)
		clause(&t, "%u byte(s) holding no valid record skipped", r->garbage * VS_ALIGN);
	if (r->recovered)
		clause(&t, "%u record(s) found again after a record of unproven size",
		       r->recovered);
	if (r->unchecked)
		clause(&t, "%u record header(s) left unchecked (too much damage to check all)",
		       r->unchecked);
	if (r->dropped)
		clause(&t, "%u variable(s) did not fit the index", r->dropped);
	return t.length;
}
