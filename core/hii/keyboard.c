/* The keyboard layouts of the database (UEFI 2.10, 34.8.1: FindKeyboardLayouts,
 * GetKeyboardLayout, SetKeyboardLayout), found in the keyboard layout packages of every
 * package list. Setting a different layout signals EFI_HII_SET_KEYBOARD_LAYOUT_EVENT_GUID
 * so that keyboard drivers read it. */
#define LOG_PREFIX "hii: "
#include "hii.h"
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static bool have_current;
static EFI_GUID current;

typedef bool (*layout_fn)(void *ctx, const UINT8 *layout, const EFI_HII_KEYBOARD_LAYOUT *hdr);

/* Calls fn for each layout of each keyboard package until it returns false. */
static void for_each_layout(layout_fn fn, void *ctx)
{
	struct hii_list *list;
	struct hii_package *package;

	list_for_each_entry (list, &hii_lists, link) {
		list_for_each_entry (package, &list->packages, link) {
			UINT32 at = EFI_HII_KEYBOARD_PACKAGE_HDR_SIZE;
			UINT16 count;

			if (package->type != EFI_HII_PACKAGE_KEYBOARD_LAYOUT)
				continue;
			/* The package was checked: every layout lies inside it. */
			mem_copy(&count, package->data + sizeof(EFI_HII_PACKAGE_HEADER),
				 sizeof(count));
			for (UINT16 i = 0; i < count; i++) {
				EFI_HII_KEYBOARD_LAYOUT hdr;

				mem_copy(&hdr, package->data + at, sizeof(hdr));
				if (!fn(ctx, package->data + at, &hdr))
					return;
				at += hdr.LayoutLength;
			}
		}
	}
}

struct collect {
	EFI_GUID *out;
	UINTN room, count;
};

static bool collect_guid(void *ctx, const UINT8 *layout, const EFI_HII_KEYBOARD_LAYOUT *hdr)
{
	struct collect *c = ctx;
	EFI_GUID guid = hdr->Guid;

	for (UINTN i = 0; i < c->count && i < c->room; i++) {
		if (guid_eq(&c->out[i], &guid))
			return true;
	}
	if (c->count < c->room)
		c->out[c->count] = guid;
	c->count++;
	return true;
}

/* FindKeyboardLayouts. */
EFI_STATUS EFIAPI hii_find_keyboard_layouts(const EFI_HII_DATABASE_PROTOCOL *This,
					    UINT16 *KeyGuidBufferLength, EFI_GUID *KeyGuidBuffer)
{
	struct collect c = {KeyGuidBuffer, 0, 0};
	UINTN need;

	if (!KeyGuidBufferLength || (*KeyGuidBufferLength && !KeyGuidBuffer))
		return EFI_INVALID_PARAMETER;
	c.room = *KeyGuidBufferLength / sizeof(EFI_GUID);
	for_each_layout(collect_guid, &c);
	if (!c.count)
		return EFI_NOT_FOUND;
	need = c.count * sizeof(EFI_GUID);
	if (need > 0xffff)
		return EFI_OUT_OF_RESOURCES;
	*KeyGuidBufferLength = (UINT16)need;
	return c.count > c.room ? EFI_BUFFER_TOO_SMALL : EFI_SUCCESS;
}

struct find_layout {
	const EFI_GUID *guid;
	const UINT8 *layout;
	UINT16 length;
};

static bool find_layout(void *ctx, const UINT8 *layout, const EFI_HII_KEYBOARD_LAYOUT *hdr)
{
	struct find_layout *f = ctx;
	EFI_GUID guid = hdr->Guid;

	if (!guid_eq(&guid, f->guid))
		return true;
	f->layout = layout;
	f->length = hdr->LayoutLength;
	return false;
}

/* GetKeyboardLayout: KeyGuid NULL asks for the current layout. */
EFI_STATUS EFIAPI hii_get_keyboard_layout(const EFI_HII_DATABASE_PROTOCOL *This,
					  const EFI_GUID *KeyGuid, UINT16 *KeyboardLayoutLength,
					  EFI_HII_KEYBOARD_LAYOUT *KeyboardLayout)
{
	struct find_layout f = {KeyGuid ? KeyGuid : &current, NULL, 0};

	if (!KeyboardLayoutLength || (*KeyboardLayoutLength && !KeyboardLayout))
		return EFI_INVALID_PARAMETER;
	if (!KeyGuid && !have_current)
		return EFI_NOT_FOUND;
	for_each_layout(find_layout, &f);
	if (!f.layout)
		return EFI_NOT_FOUND;
	if (*KeyboardLayoutLength < f.length) {
		*KeyboardLayoutLength = f.length;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(KeyboardLayout, f.layout, f.length);
	*KeyboardLayoutLength = f.length;
	return EFI_SUCCESS;
}

/* SetKeyboardLayout. */
EFI_STATUS EFIAPI hii_set_keyboard_layout(const EFI_HII_DATABASE_PROTOCOL *This,
					  const EFI_GUID *KeyGuid)
{
	struct find_layout f = {KeyGuid, NULL, 0};

	if (!KeyGuid)
		return EFI_INVALID_PARAMETER;
	for_each_layout(find_layout, &f);
	if (!f.layout)
		return EFI_NOT_FOUND;
	if (have_current && guid_eq(&current, KeyGuid))
		return EFI_SUCCESS;
	current = *KeyGuid;
	have_current = true;
	event_signal_group(&efi_hii_set_keyboard_layout_event_guid);
	return EFI_SUCCESS;
}
