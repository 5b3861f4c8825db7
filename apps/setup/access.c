/* The setup app's EFI_HII_CONFIG_ACCESS_PROTOCOL (UEFI 2.10, 35.5): each page's varstore
 * is read from and written to the page's load and save, callbacks go to the page whose
 * form is the question id's high byte. Also the pages' access to the browser's copies
 * (BrowserCallback, 35.6). */
#include "internal.h"

static bool hex_eq(CHAR16 a, char b)
{
	if (a >= 'A' && a <= 'F')
		a = (CHAR16)(a - 'A' + 'a');
	return a == (CHAR16)b;
}

/* Whether the request's NAME= spells name (4 hex digits a character, high byte first). */
static bool name_matches(const CHAR16 *request, const char *name)
{
	static const char digits[] = "0123456789abcdef";
	const CHAR16 *at = request;

	while (*at && !(at[0] == 'N' && at[1] == 'A' && at[2] == 'M' && at[3] == 'E' &&
			at[4] == '=' && (at == request || at[-1] == '&')))
		at++;
	if (!*at)
		return false;
	at += 5;
	for (; *name; name++, at += 4) {
		UINT8 c = (UINT8)*name;

		if (!hex_eq(at[0], '0') || !hex_eq(at[1], '0') || !hex_eq(at[2], digits[c >> 4]) ||
		    !hex_eq(at[3], digits[c & 15]))
			return false;
	}
	return *at == '&' || !*at;
}

/* The page whose varstore a configuration string names. */
static const struct setup_page *page_of_request(const CHAR16 *request)
{
	const struct setup_page *pages[32];
	UINTN n = setup_pages(pages, 32);

	for (UINTN i = 0; i < n && i < 32; i++)
		if (pages[i]->store && pages[i]->load && name_matches(request, pages[i]->store))
			return pages[i];
	return NULL;
}

/* The setup app answers requests for its varstores only, not whole-export (NULL) ones. */
static EFI_STATUS EFIAPI access_extract(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
					const EFI_STRING Request, EFI_STRING *Progress,
					EFI_STRING *Results)
{
	const struct setup_page *p;
	EFI_STATUS status;
	UINT8 *data;

	if (!Progress || !Results)
		return EFI_INVALID_PARAMETER;
	*Progress = Request;
	if (!Request || !(p = page_of_request(Request)))
		return EFI_NOT_FOUND;
	data = app_zalloc(p->store_size);
	if (!data)
		return EFI_OUT_OF_RESOURCES;
	status = p->load(data);
	if (!EFI_ERROR(status))
		status = setup_routing->BlockToConfig(setup_routing, Request, data, p->store_size,
						      Results, Progress);
	app_free(data);
	return status;
}

static EFI_STATUS EFIAPI access_route(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
				      const EFI_STRING Configuration, EFI_STRING *Progress)
{
	const struct setup_page *p;
	EFI_STATUS status;
	UINTN size;
	UINT8 *data;

	if (!Configuration || !Progress)
		return EFI_INVALID_PARAMETER;
	*Progress = Configuration;
	p = page_of_request(Configuration);
	if (!p || !p->save)
		return EFI_NOT_FOUND;
	data = app_zalloc(p->store_size);
	if (!data)
		return EFI_OUT_OF_RESOURCES;
	size = p->store_size;
	status = p->load(data);
	if (!EFI_ERROR(status))
		status = setup_routing->ConfigToBlock(setup_routing, Configuration, data, &size,
						      Progress);
	if (!EFI_ERROR(status))
		status = p->save(data);
	app_free(data);
	return status;
}

static EFI_STATUS EFIAPI access_callback(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
					 EFI_BROWSER_ACTION Action, EFI_QUESTION_ID QuestionId,
					 UINT8 Type, EFI_IFR_TYPE_VALUE *Value,
					 EFI_BROWSER_ACTION_REQUEST *ActionRequest)
{
	const struct setup_page *p = setup_page_of(QuestionId >> 8);

	if (!p || !p->callback)
		return EFI_UNSUPPORTED;
	return p->callback(Action, QuestionId, Type, Value, ActionRequest);
}

EFI_HII_CONFIG_ACCESS_PROTOCOL setup_access = {access_extract, access_route, access_callback};

/* The page's store name as CHAR16s. */
static void store_name(const struct setup_page *p, CHAR16 *out, size_t units)
{
	size_t i = 0;

	for (; p->store[i] && i + 1 < units; i++)
		out[i] = (UINT8)p->store[i];
	out[i] = 0;
}

/* The browser's copy of a page's varstore as a <ConfigResp> (pool), NULL on failure. */
static CHAR16 *browser_resp(const struct setup_page *p)
{
	CHAR16 name[32], *resp;
	UINTN size = 0;

	store_name(p, name, 32);
	if (setup_browser->BrowserCallback(setup_browser, &size, NULL, TRUE, &setup_formset_guid,
					   name) != EFI_BUFFER_TOO_SMALL ||
	    !(resp = app_alloc(size)))
		return NULL;
	if (EFI_ERROR(setup_browser->BrowserCallback(setup_browser, &size, resp, TRUE,
						     &setup_formset_guid, name))) {
		app_free(resp);
		return NULL;
	}
	return resp;
}

/* Reads the browser's copy. */
EFI_STATUS setup_browser_get(const struct setup_page *p, UINT8 *data)
{
	CHAR16 *resp = browser_resp(p), *progress;
	UINTN size = p->store_size;
	EFI_STATUS status;

	if (!resp)
		return EFI_NOT_FOUND;
	status = setup_routing->ConfigToBlock(setup_routing, resp, data, &size, &progress);
	app_free(resp);
	return status;
}

static bool starts_with(const CHAR16 *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (*s != (UINT8)*prefix)
			return false;
	return true;
}

/* The <ConfigRequest> of the whole store: the response's header, &OFFSET=0&WIDTH=size. */
static CHAR16 *whole_request(const CHAR16 *resp, UINT16 size)
{
	size_t hdr = 0, n;
	char tail[40];
	CHAR16 *req;

	while (resp[hdr] && !starts_with(resp + hdr, "&OFFSET="))
		hdr++;
	n = format_sn(tail, sizeof(tail), "&OFFSET=0&WIDTH=%x", size);
	req = app_alloc(2 * (hdr + n + 1));
	if (!req)
		return NULL;
	mem_copy(req, resp, 2 * hdr);
	for (size_t i = 0; i <= n; i++)
		req[hdr + i] = (UINT8)tail[i];
	return req;
}

/* Replaces the browser's copy (the browser then counts the form set as changed). */
EFI_STATUS setup_browser_set(const struct setup_page *p, const UINT8 *data)
{
	CHAR16 *resp = browser_resp(p), *req = NULL, *config = NULL, *progress, name[32];
	UINTN size;
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	if (!resp)
		return EFI_NOT_FOUND;
	req = whole_request(resp, p->store_size);
	if (!req)
		goto out;
	status = setup_routing->BlockToConfig(setup_routing, req, data, p->store_size, &config,
					      &progress);
	if (EFI_ERROR(status))
		goto out;
	store_name(p, name, 32);
	size = 2 * (str16_len(config) + 1);
	status = setup_browser->BrowserCallback(setup_browser, &size, config, FALSE,
						&setup_formset_guid, name);
out:
	app_free(config);
	app_free(req);
	app_free(resp);
	return status;
}
