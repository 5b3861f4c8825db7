#define LOG_PREFIX "browser: "
/* REFRESH (UEFI 2.10, 33.3.8.3.63): a question with a refresh interval is read again while
 * its form is shown. The browser waits for a key at most the shortest interval of the
 * form's shown questions; when none came, each such question's bytes are asked again from
 * its driver (ExtractConfig of just its OFFSET and WIDTH) and the form is drawn again, so
 * a date or time kept in the clock ticks on the screen. */
#include "browser.h"
#include <ember/core/hii_config.h>
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

#define TICKS_PER_SECOND 10000000ULL /* of 100 ns */

/* The shortest refresh interval of the shown form's shown questions, 0 for none. */
UINT8 browser_refresh_interval(struct browser *b)
{
	const struct ifr_form *f = ifr_form_find(&b->fs, b->stack[b->depth - 1]);
	UINT8 least = 0;

	for (UINT16 i = 0; f && i < f->count; i++) {
		const struct ifr_statement *s = &b->fs.stmts[f->first + i];

		if (s->refresh && (!least || s->refresh < least) && !browser_hidden(b, s))
			least = s->refresh;
	}
	return least;
}

/* Waits for a key at most seconds: 1 a key, 0 the time passed, -1 no input. */
int browser_read_key_within(UINT8 seconds, EFI_INPUT_KEY *key)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = core_st->ConIn;
	EFI_EVENT events[2];
	UINTN index = 0;
	int got = -1;

	if (!in)
		return -1;
	if (!EFI_ERROR(in->ReadKeyStroke(in, key)))
		return 1;
	events[0] = in->WaitForKey;
	if (EFI_ERROR(event_create(EVT_TIMER, 0, NULL, NULL, NULL, &events[1])))
		return browser_read_key(key) ? 1 : -1;
	event_set_timer(events[1], TimerRelative, seconds * TICKS_PER_SECOND);
	while (got < 0) {
		if (EFI_ERROR(event_wait(2, events, &index)))
			break;
		if (index == 1)
			got = 0;
		else if (!EFI_ERROR(in->ReadKeyStroke(in, key)))
			got = 1;
	}
	event_close(events[1]);
	return got;
}

/* Asks the driver again for one question's bytes of its varstore copy. */
static void reread_question(struct browser *b, const struct ifr_statement *s)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = &hii_config_routing_protocol;
	const struct ifr_varstore *v = ifr_varstore_find(&b->fs, s->varstore_id);
	EFI_STRING results = NULL, progress;
	struct hii_cfg_out o = {0};
	CHAR16 *whole, *request;
	UINTN size;
	char part[48];
	int i = v ? (int)(v - b->fs.stores) : -1;

	if (i < 0 || v->efi || !s->width || s->kind == IFR_ORDERED_LIST)
		return;
	whole = browser_whole_request(b, v);
	if (!whole)
		return;
	/* The store's header, then this question's element instead of the whole store's. */
	format_sn(part, sizeof(part), "&OFFSET=0&WIDTH=%x", v->size);
	hii_cfg_out_put16(&o, whole, str16_len(whole) - str8_len(part));
	format_sn(part, sizeof(part), "&OFFSET=%x&WIDTH=%x", s->var_offset, s->width);
	hii_cfg_out_put8(&o, part);
	request = hii_cfg_out_take(&o);
	size = v->size;
	if (request && !EFI_ERROR(r->ExtractConfig(r, request, &progress, &results)))
		r->ConfigToBlock(r, results, b->data[i], &size, &progress);
	pool_free(results);
	pool_free(request);
	pool_free(whole);
}

/* Reads the shown form's refreshed questions again. */
void browser_refresh(struct browser *b)
{
	const struct ifr_form *f = ifr_form_find(&b->fs, b->stack[b->depth - 1]);

	for (UINT16 i = 0; f && i < f->count; i++) {
		const struct ifr_statement *s = &b->fs.stmts[f->first + i];

		if (s->refresh && s->varstore_id)
			reread_question(b, s);
	}
}
