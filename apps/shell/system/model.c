/* Handle lists and the driver model's relations (UEFI 2.10, 7.3 and chapter 11): who
 * manages a controller and who are its children and parents, read from
 * OpenProtocolInformation. A driver that manages a controller opened one of its protocols
 * BY_DRIVER; a bus driver's child opened the parent's protocol BY_CHILD_CONTROLLER. */
#include "sys.h"
#include <ember/lib/guids.h>

/* EFI_COMPONENT_NAME_PROTOCOL (EFI 1.1): the same table, ISO 639-2 language codes. */
static const EFI_GUID cn_guid = {
    0x107a772c, 0xd5e1, 0x11d4, {0x9a, 0x46, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}};
static const EFI_GUID config_guids[] = {
    /* EFI_DRIVER_CONFIGURATION_PROTOCOL, EFI_DRIVER_CONFIGURATION2_PROTOCOL */
    {0x107a772b, 0xd5e1, 0x11d4, {0x9a, 0x46, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}},
    {0xbfd7dc1d, 0x24f1, 0x40d9, {0x82, 0xe7, 0x2e, 0x09, 0xbb, 0x6b, 0x4e, 0xbe}},
};
static const EFI_GUID diag_guids[] = {
    /* EFI_DRIVER_DIAGNOSTICS_PROTOCOL, EFI_DRIVER_DIAGNOSTICS2_PROTOCOL */
    {0x0784924f, 0xe296, 0x11d4, {0x9a, 0x49, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d}},
    {0x4d330321, 0x025f, 0x4aac, {0x90, 0xd8, 0x5e, 0xd9, 0x00, 0x17, 0x3b, 0x63}},
};

/* ---- Lists ---- */

bool sys_handles_has(const struct sys_handles *l, EFI_HANDLE h)
{
	for (UINTN i = 0; i < l->count; i++)
		if (l->h[i] == h)
			return true;
	return false;
}

bool sys_handles_add(struct sys_handles *l, EFI_HANDLE h)
{
	if (sys_handles_has(l, h))
		return true;
	if (l->count == l->cap) {
		UINTN cap = l->cap ? l->cap * 2 : 16;
		EFI_HANDLE *more = app_alloc(cap * sizeof(*more));
		if (!more)
			return false;
		if (l->count)
			mem_copy(more, l->h, l->count * sizeof(*more));
		app_free(l->h);
		l->h = more;
		l->cap = cap;
	}
	l->h[l->count++] = h;
	return true;
}

void sys_handles_free(struct sys_handles *l)
{
	app_free(l->h);
	*l = (struct sys_handles){0};
}

void sys_handles_sort(struct shell *sh, struct sys_handles *l)
{
	UINTN *keys = l->count ? app_alloc(l->count * sizeof(*keys)) : NULL;

	if (!keys)
		return;
	for (UINTN i = 0; i < l->count; i++)
		keys[i] = sh_handle_index(sh, l->h[i]);
	for (UINTN i = 1; i < l->count; i++) {
		EFI_HANDLE h = l->h[i];
		UINTN key = keys[i], j = i;
		for (; j > 0 && keys[j - 1] > key; j--) {
			l->h[j] = l->h[j - 1];
			keys[j] = keys[j - 1];
		}
		l->h[j] = h;
		keys[j] = key;
	}
	app_free(keys);
}

EFI_STATUS sys_handles_locate(struct shell *sh, const EFI_GUID *protocol, struct sys_handles *out)
{
	EFI_HANDLE *found = NULL;
	UINTN n = 0;
	EFI_STATUS status;

	*out = (struct sys_handles){0};
	sh_handles_refresh(sh);
	status = app_bs->LocateHandleBuffer(protocol ? ByProtocol : AllHandles,
					    (EFI_GUID *)protocol, NULL, &n, &found);
	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return status;
	for (UINTN i = 0; i < n; i++)
		if (!sys_handles_add(out, found[i])) {
			status = EFI_OUT_OF_RESOURCES;
			break;
		}
	app_free(found);
	sys_handles_sort(sh, out);
	return status;
}

void *sys_protocol(EFI_HANDLE h, const EFI_GUID *guid)
{
	void *interface = NULL;

	if (EFI_ERROR(app_bs->HandleProtocol(h, (EFI_GUID *)guid, &interface)))
		return NULL;
	return interface;
}

/* ---- Relations ---- */

static bool db_add(struct sys_db *db, const struct sys_open *o)
{
	if (db->count == db->cap) {
		UINTN cap = db->cap ? db->cap * 2 : 64;
		struct sys_open *more = app_alloc(cap * sizeof(*more));
		if (!more)
			return false;
		if (db->count)
			mem_copy(more, db->e, db->count * sizeof(*more));
		app_free(db->e);
		db->e = more;
		db->cap = cap;
	}
	db->e[db->count++] = *o;
	return true;
}

/* The driver-model opens of every protocol on h. */
static EFI_STATUS load_handle(struct sys_db *db, EFI_HANDLE h)
{
	EFI_GUID **protocols = NULL;
	UINTN count = 0;
	EFI_STATUS status = EFI_SUCCESS;

	if (EFI_ERROR(app_bs->ProtocolsPerHandle(h, &protocols, &count)))
		return EFI_SUCCESS; /* gone meanwhile */
	for (UINTN p = 0; p < count && !EFI_ERROR(status); p++) {
		EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *e = NULL;
		UINTN n = 0;
		if (EFI_ERROR(app_bs->OpenProtocolInformation(h, protocols[p], &e, &n)))
			continue;
		for (UINTN i = 0; i < n && !EFI_ERROR(status); i++) {
			struct sys_open o = {h, e[i].AgentHandle, e[i].ControllerHandle,
					     e[i].Attributes};
			if ((o.attributes & (EFI_OPEN_PROTOCOL_BY_DRIVER |
					     EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER)) &&
			    !db_add(db, &o))
				status = EFI_OUT_OF_RESOURCES;
		}
		app_free(e);
	}
	app_free(protocols);
	return status;
}

EFI_STATUS sys_db_load(struct shell *sh, struct sys_db *db)
{
	struct sys_handles all;
	EFI_STATUS status = sys_handles_locate(sh, NULL, &all);

	*db = (struct sys_db){0};
	for (UINTN i = 0; i < all.count && !EFI_ERROR(status); i++)
		status = load_handle(db, all.h[i]);
	sys_handles_free(&all);
	if (EFI_ERROR(status))
		sys_db_free(db);
	return status;
}

void sys_db_free(struct sys_db *db)
{
	app_free(db->e);
	*db = (struct sys_db){0};
}

void sys_managing_drivers(const struct sys_db *db, EFI_HANDLE ctrl, struct sys_handles *out)
{
	for (UINTN i = 0; i < db->count; i++) {
		const struct sys_open *o = &db->e[i];
		if (o->owner == ctrl && (o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER) && o->agent)
			sys_handles_add(out, o->agent);
	}
}

void sys_children(const struct sys_db *db, EFI_HANDLE ctrl, EFI_HANDLE driver,
		  struct sys_handles *out)
{
	for (UINTN i = 0; i < db->count; i++) {
		const struct sys_open *o = &db->e[i];
		if (o->owner == ctrl && (o->attributes & EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER) &&
		    o->controller && o->controller != ctrl && (!driver || o->agent == driver))
			sys_handles_add(out, o->controller);
	}
}

void sys_parents(const struct sys_db *db, EFI_HANDLE h, struct sys_handles *out)
{
	for (UINTN i = 0; i < db->count; i++) {
		const struct sys_open *o = &db->e[i];
		if (o->controller == h && o->owner != h &&
		    (o->attributes & EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER))
			sys_handles_add(out, o->owner);
	}
}

void sys_driver_controllers(const struct sys_db *db, EFI_HANDLE driver, struct sys_handles *out)
{
	for (UINTN i = 0; i < db->count; i++) {
		const struct sys_open *o = &db->e[i];
		if (o->agent == driver && (o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER))
			sys_handles_add(out, o->owner);
	}
}

/* ---- Names ---- */

/* The protocol's name for ctrl (and child), trying ComponentName2 then ComponentName. */
static CHAR16 *controller_name(EFI_HANDLE driver, EFI_HANDLE ctrl, EFI_HANDLE child)
{
	EFI_COMPONENT_NAME2_PROTOCOL *cn = sys_protocol(driver, &efi_component_name2_protocol_guid);
	CHAR16 *name = NULL;

	if (cn && !EFI_ERROR(cn->GetControllerName(cn, ctrl, child, (CHAR8 *)"en", &name)) && name)
		return sh_strdup16(name);
	cn = sys_protocol(driver, &cn_guid);
	if (cn && !EFI_ERROR(cn->GetControllerName(cn, ctrl, child, (CHAR8 *)"eng", &name)) && name)
		return sh_strdup16(name);
	return NULL;
}

CHAR16 *sys_device_name(struct shell *sh, const struct sys_db *db, EFI_HANDLE h)
{
	struct sys_handles drivers = {0}, parents = {0};
	EFI_DEVICE_PATH_PROTOCOL *path;
	CHAR16 *name = NULL;

	sys_managing_drivers(db, h, &drivers);
	for (UINTN i = 0; i < drivers.count && !name; i++)
		name = controller_name(drivers.h[i], h, NULL);
	if (!name) { /* a child is named by its parent's bus driver */
		sys_parents(db, h, &parents);
		for (UINTN p = 0; p < parents.count && !name; p++) {
			struct sys_handles bus = {0};
			sys_managing_drivers(db, parents.h[p], &bus);
			for (UINTN i = 0; i < bus.count && !name; i++)
				name = controller_name(bus.h[i], parents.h[p], h);
			sys_handles_free(&bus);
		}
	}
	sys_handles_free(&drivers);
	sys_handles_free(&parents);
	if (!name && (path = sys_protocol(h, &efi_device_path_protocol_guid)))
		name = sh_devpath_text(sh, path);
	return name;
}

CHAR16 *sys_driver_name(EFI_HANDLE driver)
{
	EFI_COMPONENT_NAME2_PROTOCOL *cn = sys_protocol(driver, &efi_component_name2_protocol_guid);
	CHAR16 *name = NULL;

	if (cn && !EFI_ERROR(cn->GetDriverName(cn, (CHAR8 *)"en", &name)) && name)
		return sh_strdup16(name);
	cn = sys_protocol(driver, &cn_guid);
	if (cn && !EFI_ERROR(cn->GetDriverName(cn, (CHAR8 *)"eng", &name)) && name)
		return sh_strdup16(name);
	return NULL;
}

CHAR16 *sys_image_name(struct shell *sh, EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = sys_protocol(image, &efi_loaded_image_protocol_guid);

	if (!li || !li->FilePath)
		return NULL;
	return sh_devpath_text(sh, li->FilePath);
}

static bool has_any(EFI_HANDLE h, const EFI_GUID *guids, UINTN n)
{
	for (UINTN i = 0; i < n; i++)
		if (sys_protocol(h, &guids[i]))
			return true;
	return false;
}

bool sys_driver_configurable(EFI_HANDLE driver)
{
	return has_any(driver, config_guids, ARRAY_SIZE(config_guids));
}

bool sys_driver_diagnosable(EFI_HANDLE driver)
{
	return has_any(driver, diag_guids, ARRAY_SIZE(diag_guids));
}
