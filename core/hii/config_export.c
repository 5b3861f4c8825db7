#define LOG_PREFIX "hii config: "
/* ExportConfig's requests built from the forms (UEFI 2.10, 35.4.2): a driver whose package
 * lists hold forms is asked, through its Config Access, for each buffer varstore of each
 * form set it publishes (the varstore's <ConfigHdr> and &OFFSET=0&WIDTH=size), as EDK2's
 * routing does, so that drivers answering only explicit requests are exported too. The
 * forms are read by the IFR reader from a copy before any of them is used. */
#include "hii.h"
#include <ember/core/hii_config.h>
#include <ember/core/hii_ifr.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/format.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

/* The <ConfigRequest> of a whole buffer varstore. */
CHAR16 *hii_config_store_request(const struct ifr_varstore *v, const EFI_DEVICE_PATH_PROTOCOL *path)
{
	struct hii_cfg_out o = {0};
	char width[32];

	hii_cfg_out_put8(&o, "GUID=");
	hii_cfg_out_hex(&o, (const UINT8 *)&v->guid, sizeof(v->guid), false);
	hii_cfg_out_put8(&o, "&NAME=");
	for (size_t i = 0; v->name[i]; i++) {
		UINT8 unit[2] = {(UINT8)(v->name[i] >> 8), (UINT8)v->name[i]};

		hii_cfg_out_hex(&o, unit, 2, false);
	}
	hii_cfg_out_put8(&o, "&PATH=");
	if (path)
		hii_cfg_out_hex(&o, (const UINT8 *)path, dp_size(path), false);
	format_sn(width, sizeof(width), "&OFFSET=0&WIDTH=%x", v->size);
	hii_cfg_out_put8(&o, width);
	return hii_cfg_out_take(&o);
}

/* The form set of a forms package, read into arrays of its own; false when it is refused
 * or memory is short. */
static bool read_forms(const struct hii_package *p, struct ifr_formset *fs)
{
	size_t cap = ifr_opcode_count(p->data, p->size);
	const char *problem;

	*fs = (struct ifr_formset){.cap = cap};
	fs->forms = pool_alloc(cap * sizeof(*fs->forms) + 1);
	fs->stmts = pool_alloc(cap * sizeof(*fs->stmts) + 1);
	fs->options = pool_alloc(cap * sizeof(*fs->options) + 1);
	fs->stores = pool_alloc(cap * sizeof(*fs->stores) + 1);
	fs->conds = pool_alloc(cap * sizeof(*fs->conds) + 1);
	if (!fs->forms || !fs->stmts || !fs->options || !fs->stores || !fs->conds)
		return false;
	problem = ifr_parse(p->data, p->size, NULL, fs);
	if (problem)
		log_debug("export: forms package refused: %s\n", problem);
	return !problem;
}

static void free_forms(struct ifr_formset *fs)
{
	pool_free(fs->forms);
	pool_free(fs->stmts);
	pool_free(fs->options);
	pool_free(fs->stores);
	pool_free(fs->conds);
}

/* Asks the driver for each buffer varstore of a form set. */
static void export_stores(const struct ifr_formset *fs, EFI_HII_CONFIG_ACCESS_PROTOCOL *access,
			  const EFI_DEVICE_PATH_PROTOCOL *path, struct hii_cfg_out *out)
{
	for (UINT16 i = 0; i < fs->store_count; i++) {
		CHAR16 *request;
		EFI_STRING progress;
		EFI_STATUS status;

		if (fs->stores[i].efi)
			continue; /* a UEFI variable: not the driver's to give */
		request = hii_config_store_request(&fs->stores[i], path);
		if (!request)
			return;
		status = hii_config_extract_one(access, request, &progress, out);
		if (EFI_ERROR(status))
			log_debug("export: varstore %u of the driver: %r\n", fs->stores[i].id,
				  status);
		pool_free(request);
	}
}

/* Exports what a driver's varstores hold, from the forms of its package lists. */
bool hii_config_export_forms(EFI_HANDLE driver, EFI_HII_CONFIG_ACCESS_PROTOCOL *access,
			     struct hii_cfg_out *out)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	const struct hii_package *p;
	struct hii_list *list;
	bool any = false;

	protocol_get(driver, &efi_device_path_protocol_guid, (void **)&path);
	list_for_each_entry (list, &hii_lists, link) {
		if (list->driver != driver)
			continue;
		list_for_each_entry (p, &list->packages, link) {
			struct ifr_formset fs;

			if (p->type != EFI_HII_PACKAGE_FORMS)
				continue;
			any = true;
			if (read_forms(p, &fs))
				export_stores(&fs, access, path, out);
			free_forms(&fs);
		}
	}
	return any;
}
