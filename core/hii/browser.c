#define LOG_PREFIX "browser: "
/* EFI_FORM_BROWSER2_PROTOCOL (UEFI 2.10, 35.6): SendForm reads the form set of a package
 * list (checked whole by the IFR reader before anything is shown), loads the varstores it
 * edits, and runs the text-mode browser (browser_ui.c); BrowserCallback lets the driver
 * read or change the browser's copy of a varstore while its form is shown. */
#include "browser.h"
#include <ember/core/hii_config.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

struct browser *browser_current;

/* The first package of a type in a list. */
static const struct hii_package *first_package(const struct hii_list *list, UINT8 type)
{
	const struct hii_package *p;

	list_for_each_entry (p, &list->packages, link) {
		if (p->type == type)
			return p;
	}
	return NULL;
}

/* A string of the list's first string package. */
void browser_text(const struct browser *b, EFI_STRING_ID id, CHAR16 *out, size_t units)
{
	const struct hii_package *p = first_package(b->list, EFI_HII_PACKAGE_STRINGS);
	struct hii_string_ref ref;
	const UINT8 *blocks;
	size_t size;

	out[0] = 0;
	if (!p || !id)
		return;
	blocks = hii_string_package_blocks(p->data, &size);
	if (hii_string_find(blocks, size, id, &ref))
		hii_string_decode(&ref, out, units);
	out[units - 1] = 0;
}

static void session_free(struct browser *b)
{
	for (UINT16 i = 0; b->data && i < b->fs.store_count; i++)
		pool_free(b->data[i]);
	pool_free(b->data);
	pool_free(b->fs.forms);
	pool_free(b->fs.stmts);
	pool_free(b->fs.options);
	pool_free(b->fs.stores);
	pool_free(b->fs.conds);
	pool_free(b->package);
}

/* The form set of a list (guid, or the first), read into b: EFI_NOT_FOUND without one. */
static EFI_STATUS session_read(struct browser *b, struct hii_list *list, const EFI_GUID *guid)
{
	const struct hii_package *p;
	const char *problem = "no forms package";
	size_t cap;

	b->list = list;
	b->generation = list->generation;
	list_for_each_entry (p, &list->packages, link) {
		if (p->type != EFI_HII_PACKAGE_FORMS)
			continue;
		cap = ifr_opcode_count(p->data, p->size);
		/* A copy: the expressions are read from it while a driver's callback may
		 * replace the list's packages. */
		b->package = pool_alloc(p->size);
		if (!b->package)
			return EFI_OUT_OF_RESOURCES;
		mem_copy(b->package, p->data, p->size);
		b->fs.cap = cap;
		b->fs.forms = pool_alloc(cap * sizeof(*b->fs.forms) + 1);
		b->fs.stmts = pool_alloc(cap * sizeof(*b->fs.stmts) + 1);
		b->fs.options = pool_alloc(cap * sizeof(*b->fs.options) + 1);
		b->fs.stores = pool_alloc(cap * sizeof(*b->fs.stores) + 1);
		b->fs.conds = pool_alloc(cap * sizeof(*b->fs.conds) + 1);
		if (!b->fs.forms || !b->fs.stmts || !b->fs.options || !b->fs.stores || !b->fs.conds)
			return EFI_OUT_OF_RESOURCES;
		problem = ifr_parse(b->package, p->size, guid, &b->fs);
		if (!problem)
			return EFI_SUCCESS;
		log_debug("forms package: %s\n", problem);
		session_free(b);
		*b = (struct browser){0};
		b->list = list;
		b->generation = list->generation;
	}
	return EFI_NOT_FOUND;
}

/* Whether two readings of a form set have the same varstores (the copies stay valid). */
static bool same_stores(const struct ifr_formset *a, const struct ifr_formset *b)
{
	if (a->store_count != b->store_count)
		return false;
	for (UINT16 i = 0; i < a->store_count; i++) {
		if (a->stores[i].id != b->stores[i].id || a->stores[i].size != b->stores[i].size ||
		    a->stores[i].efi != b->stores[i].efi)
			return false;
	}
	return true;
}

/* The forms stack after a re-read: the forms that are gone closed. */
static void fix_stack(struct browser *b)
{
	for (int i = 0; i < b->depth; i++) {
		if (!ifr_form_find(&b->fs, b->stack[i])) {
			b->depth = i;
			break;
		}
	}
	if (!b->depth) {
		b->stack[0] = b->fs.forms[0].id;
		b->depth = 1;
	}
	for (int i = 0; i < b->depth - 1; i++) {
		const struct ifr_form *f = ifr_form_find(&b->fs, b->stack[i]);

		if (b->selected_before[i] >= f->count)
			b->selected_before[i] = 0;
	}
	b->selected = 0;
}

/* Reads the form set again after the driver's update. The varstores' copies are kept when
 * the stores are the same (the user's unsaved changes stay), else read again. */
bool browser_reread(struct browser *b)
{
	struct browser fresh = {0};
	EFI_GUID guid = b->fs.guid;
	size_t data_size;

	b->generation = b->list->generation;
	if (EFI_ERROR(session_read(&fresh, b->list, &guid)) || !fresh.fs.form_count) {
		log_debug("the driver's updated form set is refused: the old one stays\n");
		session_free(&fresh);
		return false;
	}
	if (same_stores(&b->fs, &fresh.fs)) {
		fresh.data = b->data; /* moved: the old session frees no copy */
		b->data = NULL;
	} else {
		data_size = (fresh.fs.store_count + 1) * sizeof(*fresh.data);
		fresh.data = pool_alloc(data_size);
		fresh.driver_path = b->driver_path;
		fresh.access = b->access;
		if (fresh.data)
			mem_set(fresh.data, 0, data_size);
		if (!fresh.data || EFI_ERROR(browser_load(&fresh))) {
			session_free(&fresh);
			return false;
		}
	}
	session_free(b);
	b->data = fresh.data;
	b->package = fresh.package;
	b->fs = fresh.fs;
	fix_stack(b);
	return true;
}

/* The driver's device path and Config Access, when the list has a driver. */
static void session_driver(struct browser *b)
{
	EFI_HANDLE driver = b->list->driver;

	if (!driver || !handle_is_valid(driver))
		return;
	protocol_get(driver, &efi_device_path_protocol_guid, (void **)&b->driver_path);
	protocol_get(driver, &efi_hii_config_access_protocol_guid, (void **)&b->access);
}

/* Runs the browser over the first list of the handles that has the form set. */
static EFI_STATUS send_form(EFI_HII_HANDLE *handles, UINTN count, const EFI_GUID *guid,
			    EFI_FORM_ID form_id, EFI_BROWSER_ACTION_REQUEST *request)
{
	struct browser b = {0};
	EFI_STATUS status = EFI_NOT_FOUND;

	for (UINTN i = 0; i < count && status == EFI_NOT_FOUND; i++) {
		struct hii_list *list = hii_list_lookup(handles[i]);

		if (list)
			status = session_read(&b, list, guid);
	}
	if (EFI_ERROR(status))
		return status;
	if (!b.fs.form_count || (form_id && !ifr_form_find(&b.fs, form_id))) {
		status = EFI_NOT_FOUND;
		goto out;
	}
	b.stack[0] = form_id ? form_id : b.fs.forms[0].id;
	b.depth = 1;
	session_driver(&b);
	b.data = pool_alloc((b.fs.store_count + 1) * sizeof(*b.data));
	status = b.data ? browser_load(&b) : EFI_OUT_OF_RESOURCES;
	if (EFI_ERROR(status))
		goto out;
	browser_current = &b;
	browser_run(&b);
	browser_current = NULL;
	if (request)
		*request = b.request;
out:
	session_free(&b);
	return status;
}

static EFI_STATUS EFIAPI browser_send_form(const EFI_FORM_BROWSER2_PROTOCOL *This,
					   EFI_HII_HANDLE *Handle, UINTN HandleCount,
					   EFI_GUID *FormSetGuid, EFI_FORM_ID FormId,
					   const EFI_SCREEN_DESCRIPTOR *ScreenDimensions,
					   EFI_BROWSER_ACTION_REQUEST *ActionRequest)
{
	if (!Handle || !HandleCount)
		return EFI_INVALID_PARAMETER;
	if (browser_current)
		return EFI_ACCESS_DENIED; /* one session at a time */
	if (ActionRequest)
		*ActionRequest = EFI_BROWSER_ACTION_REQUEST_NONE;
	return send_form(Handle, HandleCount, FormSetGuid, FormId, ActionRequest);
}

/* The varstore of a GUID and name (NULL: the first) in the session. */
static int find_store(const struct browser *b, const EFI_GUID *guid, const CHAR16 *name)
{
	for (UINT16 i = 0; i < b->fs.store_count; i++) {
		const struct ifr_varstore *v = &b->fs.stores[i];

		if ((!guid || guid_eq(guid, &v->guid)) && (!name || !str16_cmp(name, v->name)))
			return i;
	}
	return -1;
}

/* Gives the store's copy as a <ConfigResp>, when it fits. */
static EFI_STATUS retrieve(struct browser *b, int i, UINTN *size, EFI_STRING out)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = &hii_config_routing_protocol;
	const struct ifr_varstore *v = &b->fs.stores[i];
	CHAR16 *request = browser_whole_request(b, v), *config = NULL, *progress;
	EFI_STATUS status;
	UINTN need;

	if (!request)
		return EFI_OUT_OF_RESOURCES;
	status = r->BlockToConfig(r, request, b->data[i], v->size, &config, &progress);
	pool_free(request);
	if (EFI_ERROR(status))
		return status;
	need = str16_size(config);
	if (*size < need || !out) {
		status = EFI_BUFFER_TOO_SMALL;
	} else {
		mem_copy(out, config, need);
	}
	*size = need;
	pool_free(config);
	return status;
}

static EFI_STATUS EFIAPI browser_callback(const EFI_FORM_BROWSER2_PROTOCOL *This,
					  UINTN *ResultsDataSize, EFI_STRING ResultsData,
					  BOOLEAN RetrieveData, const EFI_GUID *VariableGuid,
					  const CHAR16 *VariableName)
{
	struct browser *b = browser_current;
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = &hii_config_routing_protocol;
	EFI_STRING progress;
	UINTN size;
	int i;

	if (!ResultsDataSize)
		return EFI_INVALID_PARAMETER;
	if (!b)
		return EFI_NOT_FOUND;
	i = find_store(b, VariableGuid, VariableName);
	if (i < 0)
		return EFI_NOT_FOUND;
	if (RetrieveData)
		return retrieve(b, i, ResultsDataSize, ResultsData);
	if (!ResultsData)
		return EFI_INVALID_PARAMETER;
	size = b->fs.stores[i].size;
	b->dirty = true;
	return r->ConfigToBlock(r, ResultsData, b->data[i], &size, &progress);
}

/* Published with the database (database.c). */
EFI_FORM_BROWSER2_PROTOCOL hii_form_browser = {browser_send_form, browser_callback};
