/* Names for devices and GUIDs. */
#include "internal.h"
#include <efi/protocol/component_name2.h>

static EFI_GUID cn2_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* The controller name some driver managing h gives through ComponentName2. */
CHAR16 *sh_component_name(EFI_HANDLE h)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *entries;
	EFI_GUID **protocols = NULL;
	UINTN count = 0, n;
	CHAR16 *found = NULL;

	if (EFI_ERROR(app_bs->ProtocolsPerHandle(h, &protocols, &count)))
		return NULL;
	for (UINTN p = 0; p < count && !found; p++) {
		if (EFI_ERROR(app_bs->OpenProtocolInformation(h, protocols[p], &entries, &n)))
			continue;
		for (UINTN e = 0; e < n && !found; e++) {
			EFI_COMPONENT_NAME2_PROTOCOL *cn;
			CHAR16 *name;
			if (!(entries[e].Attributes & EFI_OPEN_PROTOCOL_BY_DRIVER) ||
			    EFI_ERROR(app_bs->HandleProtocol(entries[e].AgentHandle, &cn2_guid,
							     (void **)&cn)))
				continue;
			if (!EFI_ERROR(cn->GetControllerName(cn, h, NULL, (CHAR8 *)"en", &name)))
				found = sh_strdup16(name);
		}
		app_free(entries);
	}
	app_free(protocols);
	return found;
}

CHAR16 *sh_device_name(struct shell *sh, EFI_HANDLE h)
{
	EFI_DEVICE_PATH_PROTOCOL *path;
	CHAR16 *name = sh_component_name(h);

	if (name)
		return name;
	if (EFI_ERROR(app_bs->HandleProtocol(h, &dp_guid, (void **)&path)))
		return NULL;
	return sh_devpath_text(sh, path);
}

/* ---- GUID names ---- */

__attribute__((used, section(".shguid$a"),
	       aligned(8))) static const struct sh_guid_name guids_start;
__attribute__((used, section(".shguid$z"), aligned(8))) static const struct sh_guid_name guids_end;

const CHAR16 *sh_guid_name(struct shell *sh, const EFI_GUID *guid)
{
	const struct sh_guid_name *g = &guids_start + 1, *end = &guids_end;

	for (struct sh_guid_entry *e = sh->guid_names; e; e = e->next)
		if (guid_eq(&e->guid, guid))
			return e->name;
	__asm__("" : "+r"(g), "+r"(end));
	for (; g < end; g++)
		if (g->name && guid_eq(&g->guid, guid))
			return g->name;
	return NULL;
}

EFI_STATUS sh_guid_register(struct shell *sh, const EFI_GUID *guid, const CHAR16 *name)
{
	struct sh_guid_entry *e;
	EFI_GUID other;

	if (!guid || !name || !name[0])
		return EFI_INVALID_PARAMETER;
	if (sh_guid_name(sh, guid) || !EFI_ERROR(sh_guid_from_name(sh, name, &other)))
		return EFI_ACCESS_DENIED;
	e = app_zalloc(sizeof(*e));
	if (!e || !(e->name = sh_strdup16(name))) {
		app_free(e);
		return EFI_OUT_OF_RESOURCES;
	}
	e->guid = *guid;
	e->next = sh->guid_names;
	sh->guid_names = e;
	return EFI_SUCCESS;
}

EFI_STATUS sh_guid_from_name(struct shell *sh, const CHAR16 *name, EFI_GUID *guid)
{
	const struct sh_guid_name *g = &guids_start + 1, *end = &guids_end;

	for (struct sh_guid_entry *e = sh->guid_names; e; e = e->next)
		if (sh_eq_nocase(e->name, name)) {
			*guid = e->guid;
			return EFI_SUCCESS;
		}
	__asm__("" : "+r"(g), "+r"(end));
	for (; g < end; g++)
		if (g->name && sh_eq_nocase(g->name, name)) {
			*guid = g->guid;
			return EFI_SUCCESS;
		}
	return EFI_NOT_FOUND;
}
