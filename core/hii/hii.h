/* The HII database's package lists, shared by the database and string protocols
 * (core/hii/). A list's EFI_HII_HANDLE is its struct, checked by memory ownership and
 * signature as the core checks every handle from callers. */
#ifndef CORE_HII_HII_H
#define CORE_HII_HII_H

#include <ember/core/core.h>
#include <ember/core/hii_packages.h>
#include <ember/lib/list.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/hii_string.h>
#include <efi/protocol/hii_config_access.h>
#include <efi/protocol/hii_config_routing.h>
#include <efi/protocol/form_browser2.h>

#define HII_LIST_SIGNATURE SIGNATURE_32('h', 'i', 'i', 'l')

/* One package, kept as the bytes it was given (END packages are not kept). */
struct hii_package {
	struct list link;
	UINT32 size;
	UINT8 type;
	UINT8 data[]; /* the package, header included */
};

/* A package list of the database. */
struct hii_list {
	UINT32 signature;
	struct list link;
	EFI_GUID guid;
	EFI_HANDLE driver;    /* DriverHandle of NewPackageList, may be NULL */
	struct list packages; /* of struct hii_package, in the order given */
	UINT32 generation;    /* counts UpdatePackageList calls (the browser re-reads) */
};

/* Every package list, in the order they were added. */
extern struct list hii_lists;

/* The list behind an EFI_HII_HANDLE, or NULL when it is not one of the database's. */
struct hii_list *hii_list_lookup(EFI_HII_HANDLE handle);

/* A copy of a checked package, not yet in any list; NULL without memory. */
struct hii_package *hii_package_copy(const UINT8 *data);

/* Calls the notifications registered for a package's type (and GUID) and for what. */
void hii_notify(struct hii_list *list, const struct hii_package *package,
		EFI_HII_DATABASE_NOTIFY_TYPE what);

/* Replaces a package of a list by another (the string protocol's edits); old is freed. */
void hii_package_replace(struct hii_package *old, struct hii_package *package);

/* The string protocol (string.c). */
extern EFI_HII_STRING_PROTOCOL hii_string_protocol;

/* A copy of a string package (old, or NULL for a new empty one of language) with string
 * id set to text (string_edit.c); NULL without memory. */
struct hii_package *hii_string_package_edit(const struct hii_package *old, const char *language,
					    EFI_STRING_ID id, const CHAR16 *text);

/* The database protocol's notification and keyboard-layout functions (notify.c,
 * keyboard.c). */
EFI_STATUS EFIAPI hii_register_package_notify(const EFI_HII_DATABASE_PROTOCOL *This,
					      UINT8 PackageType, const EFI_GUID *PackageGuid,
					      EFI_HII_DATABASE_NOTIFY PackageNotifyFn,
					      EFI_HII_DATABASE_NOTIFY_TYPE NotifyType,
					      EFI_HANDLE *NotifyHandle);
EFI_STATUS EFIAPI hii_unregister_package_notify(const EFI_HII_DATABASE_PROTOCOL *This,
						EFI_HANDLE NotificationHandle);
EFI_STATUS EFIAPI hii_find_keyboard_layouts(const EFI_HII_DATABASE_PROTOCOL *This,
					    UINT16 *KeyGuidBufferLength, EFI_GUID *KeyGuidBuffer);
EFI_STATUS EFIAPI hii_get_keyboard_layout(const EFI_HII_DATABASE_PROTOCOL *This,
					  const EFI_GUID *KeyGuid, UINT16 *KeyboardLayoutLength,
					  EFI_HII_KEYBOARD_LAYOUT *KeyboardLayout);
EFI_STATUS EFIAPI hii_set_keyboard_layout(const EFI_HII_DATABASE_PROTOCOL *This,
					  const EFI_GUID *KeyGuid);

/* A configuration string being built (config_out.c): pool memory, always terminated once
 * anything was put; failed once memory ran out. */
struct hii_cfg_out {
	CHAR16 *buf;
	size_t len, cap;
	bool failed;
};

/* Appends n units of text (ASCII put widens each byte). */
void hii_cfg_out_put16(struct hii_cfg_out *o, const CHAR16 *text, size_t n);
void hii_cfg_out_put8(struct hii_cfg_out *o, const char *text);

/* Appends bytes as hex, in order or reversed as a little-endian number. */
void hii_cfg_out_hex(struct hii_cfg_out *o, const UINT8 *bytes, size_t n, bool reversed);

/* The finished string (an empty one when nothing was put), or NULL without memory; the
 * builder is then empty. */
CHAR16 *hii_cfg_out_take(struct hii_cfg_out *o);

/* The Config Access protocol of the driver whose device path a request's PATH names
 * (config_routing.c): NULL when no handle has both. */
struct hii_cfg_hdr;
EFI_HII_CONFIG_ACCESS_PROTOCOL *hii_config_access_for(const CHAR16 *s, const struct hii_cfg_hdr *h);

/* Asks a driver's Config Access for one request and appends its answer to out (after a
 * '&' when out is not empty) (config_routing.c). */
EFI_STATUS hii_config_extract_one(EFI_HII_CONFIG_ACCESS_PROTOCOL *access, CHAR16 *request,
				  EFI_STRING *progress, struct hii_cfg_out *out);

struct ifr_varstore;

/* The <ConfigRequest> of a whole buffer varstore: its <ConfigHdr> (GUID, NAME, PATH of
 * path, empty when NULL) and &OFFSET=0&WIDTH=size; NULL without memory (config_export.c). */
CHAR16 *hii_config_store_request(const struct ifr_varstore *v,
				 const EFI_DEVICE_PATH_PROTOCOL *path);

/* Appends what a driver gives for the buffer varstores of the forms of its package lists;
 * false when none of its lists holds a forms package (config_export.c). */
bool hii_config_export_forms(EFI_HANDLE driver, EFI_HII_CONFIG_ACCESS_PROTOCOL *access,
			     struct hii_cfg_out *out);

/* The routing protocol's conversions (config_block.c). */
EFI_STATUS EFIAPI hii_block_to_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
				      const EFI_STRING ConfigRequest, const UINT8 *Block,
				      const UINTN BlockSize, EFI_STRING *Config,
				      EFI_STRING *Progress);
EFI_STATUS EFIAPI hii_config_to_block(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
				      const EFI_STRING ConfigResp, UINT8 *Block, UINTN *BlockSize,
				      EFI_STRING *Progress);
EFI_STATUS EFIAPI hii_get_alt_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
				     const EFI_STRING ConfigResp, const EFI_GUID *Guid,
				     const EFI_STRING Name,
				     const EFI_DEVICE_PATH_PROTOCOL *DevicePath,
				     const UINT16 *AltCfgId, EFI_STRING *AltCfgResp);

/* The routing protocol (config_routing.c) and the browser (browser/). */
extern EFI_HII_CONFIG_ROUTING_PROTOCOL hii_config_routing_protocol;
extern EFI_FORM_BROWSER2_PROTOCOL hii_form_browser;

#endif
