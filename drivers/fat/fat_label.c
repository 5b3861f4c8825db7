/* The volume label: the root directory's volume-label entry (what Windows and mtools
 * show) and the boot sector's copy (on FAT32 also in the backup boot sector), kept the
 * same. A label has up to 11 OEM characters, upper case. */
#include "fat.h"
#include <ember/lib/str.h>

/* Characters Windows refuses in labels, besides control characters. */
static const CHAR16 label_forbidden[] = u"\"*+,./:;<=>?[\\]|";

/* Finds the root's volume-label entry once; later calls use what was found. */
static EFI_STATUS find_label(struct fat_volume *vol)
{
	struct fat_reader *r;
	EFI_STATUS status = fat_dir_load(vol->root);

	if (EFI_ERROR(status) || vol->label_known)
		return status;
	r = fat_reader_begin(vol->root);
	for (UINT32 s = 0;; s++) {
		const UINT8 *raw;

		status = fat_reader_get(r, s, &raw);
		if (status == EFI_NOT_FOUND || (!EFI_ERROR(status) && raw[0] == 0))
			break;
		if (EFI_ERROR(status))
			return status;
		if (raw[0] != FAT_ENTRY_FREE && (raw[11] & FAT_ATTR_MASK) != FAT_ATTR_LFN &&
		    (raw[11] & FAT_ATTR_VOLUME_ID)) {
			vol->label_in_root = true;
			vol->label_slot = s;
			break;
		}
	}
	vol->label_known = true;
	return EFI_SUCCESS;
}

static void bytes_to_label(EFI_UNICODE_COLLATION_PROTOCOL *uc, const UINT8 *bytes, CHAR16 *label)
{
	size_t n = 11;

	while (n > 0 && (bytes[n - 1] == ' ' || bytes[n - 1] == 0))
		n--;
	uc->FatToStr(uc, n, (CHAR8 *)bytes, label);
}

EFI_STATUS fat_label_get(struct fat_volume *vol, CHAR16 *label, size_t units)
{
	UINT8 bytes[11];
	EFI_STATUS status = find_label(vol);

	if (EFI_ERROR(status) || units < 12)
		return EFI_ERROR(status) ? status : EFI_BUFFER_TOO_SMALL;
	mem_set(bytes, ' ', sizeof(bytes));
	if (vol->label_in_root) {
		struct fat_dirent de;

		status = fat_dir_read_slots(vol->root, vol->label_slot, 1, &de);
		if (!EFI_ERROR(status))
			mem_copy(bytes, de.name, sizeof(bytes));
	} else if (vol->geo.label_offset) {
		status = fat_disk_read(vol, vol->geo.label_offset, sizeof(bytes), bytes);
		if (!EFI_ERROR(status) && mem_cmp(bytes, FAT_NO_NAME, sizeof(bytes)) == 0)
			mem_set(bytes, ' ', sizeof(bytes));
	}
	if (!EFI_ERROR(status))
		bytes_to_label(vol->uc, bytes, label);
	return status;
}

/* The label's 11 space-padded OEM bytes; EFI_INVALID_PARAMETER when it cannot be one. */
static EFI_STATUS label_to_bytes(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *label,
				 UINT8 *bytes)
{
	size_t len = str16_len(label);

	if (len > 11)
		return EFI_INVALID_PARAMETER;
	mem_set(bytes, ' ', 11);
	for (size_t i = 0; i < len; i++) {
		CHAR16 one[2] = {label[i], 0};
		CHAR8 fat[2];

		if (label[i] < 0x20 || label[i] == 0x7f || str16_chr(label_forbidden, label[i]))
			return EFI_INVALID_PARAMETER;
		if (label[i] == u' ')
			continue;
		uc->StrToFat(uc, one, 1, fat); /* upper case; '_' when the code page lacks it */
		bytes[i] = (UINT8)fat[0];
	}
	if (bytes[0] == ' ' && len)
		return EFI_INVALID_PARAMETER; /* a label does not start with a space */
	return EFI_SUCCESS;
}

static EFI_STATUS write_boot_labels(struct fat_volume *vol, const UINT8 *bytes)
{
	const UINT8 *boot = bytes;
	EFI_STATUS status;

	if (mem_cmp(bytes, "           ", 11) == 0)
		boot = (const UINT8 *)FAT_NO_NAME;
	if (!vol->geo.label_offset)
		return EFI_SUCCESS;
	status = fat_disk_write(vol, vol->geo.label_offset, 11, boot);
	if (!EFI_ERROR(status) && vol->geo.backup_boot_offset)
		status = fat_disk_write(vol, vol->geo.backup_boot_offset + vol->geo.label_offset,
					11, boot);
	return status;
}

/* Updates, adds or removes the root's label entry. */
static EFI_STATUS write_root_label(struct fat_volume *vol, const UINT8 *bytes)
{
	bool empty = mem_cmp(bytes, "           ", 11) == 0;
	struct fat_dirent de = {0};
	EFI_STATUS status;

	if (vol->label_in_root && empty) {
		status = fat_dir_remove(vol->root, vol->label_slot, 0);
		vol->label_in_root = EFI_ERROR(status);
		return status;
	}
	if (empty)
		return EFI_SUCCESS;
	if (vol->label_in_root) {
		status = fat_dir_read_slots(vol->root, vol->label_slot, 1, &de);
	} else {
		de.attr = FAT_ATTR_VOLUME_ID;
		status = fat_dir_alloc_slots(vol->root, 1, &vol->label_slot);
	}
	if (EFI_ERROR(status))
		return status;
	mem_copy(de.name, bytes, 11);
	fat_now(&de.write_date, &de.write_time, &de.create_tenths);
	de.create_tenths = 0;
	status = fat_dir_write_entry(vol->root, vol->label_slot, &de);
	if (!EFI_ERROR(status) && !vol->label_in_root) {
		fat_dir_mark(vol->root, vol->label_slot, 1, true);
		vol->label_in_root = true;
	}
	return status;
}

/* The labels as they were, to put back when a change fails half-way. */
struct old_labels {
	UINT8 boot[11], backup[11];
	bool in_root;
	struct fat_dirent root;
};

static EFI_STATUS save_labels(struct fat_volume *vol, struct old_labels *old)
{
	const struct fat_geometry *g = &vol->geo;
	EFI_STATUS status = EFI_SUCCESS;

	old->in_root = vol->label_in_root;
	if (old->in_root)
		status = fat_dir_read_slots(vol->root, vol->label_slot, 1, &old->root);
	if (!EFI_ERROR(status) && g->label_offset)
		status = fat_disk_read(vol, g->label_offset, 11, old->boot);
	if (!EFI_ERROR(status) && g->label_offset && g->backup_boot_offset)
		status =
		    fat_disk_read(vol, g->backup_boot_offset + g->label_offset, 11, old->backup);
	return status;
}

/* Puts the old labels back; the volume is left marked dirty when that fails too. */
static void restore_labels(struct fat_volume *vol, const struct old_labels *old)
{
	const struct fat_geometry *g = &vol->geo;
	EFI_STATUS status = EFI_SUCCESS;

	if (g->label_offset)
		status = fat_disk_write(vol, g->label_offset, 11, old->boot);
	if (!EFI_ERROR(status) && g->label_offset && g->backup_boot_offset)
		status =
		    fat_disk_write(vol, g->backup_boot_offset + g->label_offset, 11, old->backup);
	if (!EFI_ERROR(status) && old->in_root) {
		status = fat_dir_write_entry(vol->root, vol->label_slot, &old->root);
		if (!EFI_ERROR(status)) {
			fat_dir_mark(vol->root, vol->label_slot, 1, true);
			vol->label_in_root = true;
		}
	} else if (!EFI_ERROR(status) && vol->label_in_root) {
		status = fat_dir_remove(vol->root, vol->label_slot, 0);
		vol->label_in_root = EFI_ERROR(status);
	}
	if (EFI_ERROR(status))
		fat_volume_damaged(vol);
}

EFI_STATUS fat_label_set(struct fat_volume *vol, const CHAR16 *label)
{
	UINT8 bytes[11];
	struct old_labels old;
	EFI_STATUS status = label_to_bytes(vol->uc, label, bytes);

	if (EFI_ERROR(status))
		return status;
	status = fat_tx_begin(vol);
	if (EFI_ERROR(status))
		return status;
	status = find_label(vol);
	if (!EFI_ERROR(status))
		status = save_labels(vol, &old);
	if (!EFI_ERROR(status)) {
		status = write_root_label(vol, bytes);
		if (!EFI_ERROR(status))
			status = write_boot_labels(vol, bytes);
		if (EFI_ERROR(status))
			restore_labels(vol, &old);
	}
	return fat_tx_end(vol, status);
}
