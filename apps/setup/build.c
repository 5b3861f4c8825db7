/* The setup screen's package list, built at run time: the form set with the main form (a
 * link to each page) and every page's forms and varstore, and the strings they use. */
#include "internal.h"
#include <ember/lib/guids.h>

#define MAX_PAGES 32

/* An ASCII string of the package. */
EFI_STRING_ID setup_str(struct setup_build *b, const char *text)
{
	return strb_add(&b->str, text);
}

/* A question header. */
struct ifrb_question setup_q(EFI_STRING_ID prompt, EFI_STRING_ID help, EFI_QUESTION_ID id,
			     EFI_VARSTORE_ID store, UINT16 offset, UINT8 flags)
{
	return (struct ifrb_question){prompt, help, id, store, offset, flags};
}

static void varstores(struct setup_build *b, const struct setup_page **pages, UINTN n)
{
	for (UINTN i = 0; i < n; i++)
		if (pages[i]->store)
			ifrb_varstore(&b->ifr, &setup_formset_guid, pages[i]->form,
				      pages[i]->store_size, pages[i]->store);
}

/* The main form: a link to every page but itself. */
static void main_form(struct setup_build *b, const struct setup_page **pages, UINTN n)
{
	ifrb_form(&b->ifr, SETUP_FORM_MAIN, setup_str(b, "Ember settings"));
	ifrb_subtitle(&b->ifr, setup_str(b, "Enter opens a page, Esc leaves, F10 saves"));
	for (UINTN i = 0; i < n; i++) {
		struct ifrb_question q = setup_q(setup_str(b, pages[i]->title),
						 setup_str(b, pages[i]->help ? pages[i]->help : ""),
						 SETUP_QID(SETUP_FORM_MAIN, i + 1), 0, 0, 0);
		if (pages[i]->form != SETUP_FORM_MAIN)
			ifrb_goto(&b->ifr, &q, pages[i]->form);
	}
	ifrb_end(&b->ifr);
}

/* Builds the forms and strings packages into b. */
static bool build_packages(struct setup_build *b)
{
	const struct setup_page *pages[MAX_PAGES];
	UINTN n = setup_pages(pages, MAX_PAGES);

	if (n > MAX_PAGES)
		n = MAX_PAGES;
	ifrb_form_set(&b->ifr, &setup_formset_guid, setup_str(b, "Ember settings"),
		      setup_str(b, "The firmware's settings"));
	varstores(b, pages, n);
	main_form(b, pages, n);
	for (UINTN i = 0; i < n; i++)
		if (pages[i]->build)
			pages[i]->build(b);
	ifrb_end(&b->ifr);
	return ifrb_done(&b->ifr) && strb_done(&b->str);
}

/* The package list (header, forms, strings, END) in a new pool block; NULL when it does
 * not fit or no memory. */
EFI_HII_PACKAGE_LIST_HEADER *setup_package_list(void)
{
	static UINT8 forms[SETUP_FORMS_ROOM], strings[SETUP_STRINGS_ROOM];
	struct setup_build b;
	EFI_HII_PACKAGE_LIST_HEADER *list;
	UINT32 end = 4 | (UINT32)EFI_HII_PACKAGE_END << 24;
	size_t size;
	UINT8 *p;

	ifrb_init(&b.ifr, forms, sizeof(forms));
	strb_init(&b.str, strings, sizeof(strings));
	if (!build_packages(&b))
		return NULL;
	size = sizeof(*list) + b.ifr.len + b.str.len + 4;
	list = app_alloc(size);
	if (!list)
		return NULL;
	list->PackageListGuid = setup_formset_guid;
	list->PackageLength = (UINT32)size;
	p = (UINT8 *)(list + 1);
	mem_copy(p, forms, b.ifr.len);
	mem_copy(p + b.ifr.len, strings, b.str.len);
	mem_copy(p + b.ifr.len + b.str.len, &end, 4);
	return list;
}
