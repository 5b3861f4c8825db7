/* Names for devices and GUIDs. */
#include "internal.h"
#include <efi/protocol/component_name2.h>
#include <ember/lib/guids.h>

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

/* ---- GUID names: lib/guids.c's table, and those programs registered ---- */

/* The name a program registered, or a table name Ember already turned into CHAR16. */
static struct sh_guid_entry *entry_for(struct shell *sh, const EFI_GUID *guid)
{
	for (struct sh_guid_entry *e = sh->guid_names; e; e = e->next)
		if (guid_eq(&e->guid, guid))
			return e;
	return NULL;
}

/* Remembers name for guid (the list owns the copy: EFI_SHELL_PROTOCOL.GetGuidName hands
 * out pointers that must stay valid). */
static struct sh_guid_entry *remember(struct shell *sh, const EFI_GUID *guid, CHAR16 *name)
{
	struct sh_guid_entry *e = name ? app_zalloc(sizeof(*e)) : NULL;

	if (!e) { /* out of memory: no entry with a NULL name, which lookups would follow */
		app_free(name);
		return NULL;
	}
	e->guid = *guid;
	e->name = name;
	e->next = sh->guid_names;
	sh->guid_names = e;
	return e;
}

const CHAR16 *sh_guid_name(struct shell *sh, const EFI_GUID *guid)
{
	struct sh_guid_entry *e = entry_for(sh, guid);
	const char *known;

	if (e)
		return e->name;
	known = guid_name(guid);
	if (!known)
		return NULL;
	e = remember(sh, guid, sh_strdup_ascii(known));
	return e ? e->name : NULL;
}

EFI_STATUS sh_guid_register(struct shell *sh, const EFI_GUID *guid, const CHAR16 *name)
{
	EFI_GUID other;
	CHAR16 *copy;

	if (!guid || !name || !name[0])
		return EFI_INVALID_PARAMETER;
	if (sh_guid_name(sh, guid) || !EFI_ERROR(sh_guid_from_name(sh, name, &other)))
		return EFI_ACCESS_DENIED;
	copy = sh_strdup16(name);
	if (!copy || !remember(sh, guid, copy))
		return EFI_OUT_OF_RESOURCES;
	return EFI_SUCCESS;
}

EFI_STATUS sh_guid_from_name(struct shell *sh, const CHAR16 *name, EFI_GUID *guid)
{
	const EFI_GUID *known;
	char ascii[64];
	UINTN n = 0;

	for (struct sh_guid_entry *e = sh->guid_names; e; e = e->next)
		if (sh_eq_nocase(e->name, name)) {
			*guid = e->guid;
			return EFI_SUCCESS;
		}
	for (; name[n] && n + 1 < sizeof(ascii); n++) {
		if (name[n] > 0x7e)
			return EFI_NOT_FOUND; /* the table's names are ASCII */
		ascii[n] = (char)name[n];
	}
	if (name[n])
		return EFI_NOT_FOUND;
	ascii[n] = 0;
	known = guid_by_name(ascii);
	if (!known)
		return EFI_NOT_FOUND;
	*guid = *known;
	return EFI_SUCCESS;
}
