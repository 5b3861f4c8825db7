/* The page table: SETUP_PAGE entries collected by the linker between two markers. */
#include "setup.h"

__attribute__((used, section(".setpg$a"), aligned(8))) static const struct setup_page pages_start;
__attribute__((used, section(".setpg$z"), aligned(8))) static const struct setup_page pages_end;

/* The entries between the markers; the linker may pad with zeros, which have no form. */
static void table_bounds(const struct setup_page **first, const struct setup_page **end)
{
	const struct setup_page *a = &pages_start + 1, *z = &pages_end;

	/* The markers are distinct objects to the compiler; hide that from the comparison. */
	__asm__("" : "+r"(a), "+r"(z));
	*first = a;
	*end = z;
}

/* Every page sorted by rank. */
UINTN setup_pages(const struct setup_page **out, UINTN max)
{
	const struct setup_page *p, *end;
	UINTN n = 0;

	for (table_bounds(&p, &end); p < end; p++) {
		if (!p->form)
			continue;
		UINTN i = n++;
		if (i >= max)
			continue;
		while (i > 0 && out[i - 1]->rank > p->rank) {
			out[i] = out[i - 1];
			i--;
		}
		out[i] = p;
	}
	return n;
}

/* The page owning a form id (its low byte). */
const struct setup_page *setup_page_of(EFI_FORM_ID form)
{
	const struct setup_page *p, *end;

	for (table_bounds(&p, &end); p < end; p++)
		if (p->form && p->form == (form & 0xff))
			return p;
	return NULL;
}
