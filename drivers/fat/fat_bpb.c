/* Boot sector (BIOS parameter block) validation and the volume's layout, and the FAT32
 * FSInfo sector. The FAT type follows what Linux and fsck.fat decide: FAT32 when the
 * 16-bit FAT size is zero, else FAT12 below 4085 clusters and FAT16 above. */
#define LOG_PREFIX "fat: "
#include "fat_format.h"
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define FAT12_CLUSTERS_MAX 4084
#define FAT16_CLUSTERS_MAX 65524      /* 0xfff5 is the highest cluster number */
#define FAT32_CLUSTERS_MAX 0x0ffffff4 /* 0x0ffffff5 is the highest cluster number */
#define CLUSTER_SIZE_MAX (256u << 10)

struct bpb {
	UINT32 sector_size, sectors_per_cluster, reserved, fat_count, root_entries;
	UINT64 total_sectors, fat_sectors;
	UINT8 media;
};

static bool power_of_two(UINT32 v)
{
	return v && !(v & (v - 1));
}

/* The fields every FAT boot sector has; EFI_UNSUPPORTED when they do not look like FAT. */
static EFI_STATUS read_common(const UINT8 *b, struct bpb *p)
{
	p->sector_size = fat_le16(b + 11);
	p->sectors_per_cluster = b[13];
	p->reserved = fat_le16(b + 14);
	p->fat_count = b[16];
	p->root_entries = fat_le16(b + 17);
	p->total_sectors = fat_le16(b + 19) ? fat_le16(b + 19) : fat_le32(b + 32);
	p->media = b[21];
	p->fat_sectors = fat_le16(b + 22) ? fat_le16(b + 22) : fat_le32(b + 36);
	if (p->sector_size < 512 || p->sector_size > 4096 || !power_of_two(p->sector_size)) {
		log_debug("not FAT: %u bytes per sector\n", p->sector_size);
		return EFI_UNSUPPORTED;
	}
	if (!power_of_two(p->sectors_per_cluster) ||
	    p->sector_size * p->sectors_per_cluster > CLUSTER_SIZE_MAX) {
		log_debug("not FAT: %u sectors per cluster\n", p->sectors_per_cluster);
		return EFI_UNSUPPORTED;
	}
	if (p->reserved == 0 || p->fat_count == 0 || p->fat_count > 16 || p->total_sectors == 0 ||
	    p->fat_sectors == 0) {
		log_debug("not FAT: %u reserved sectors, %u FATs of %llu sectors, %llu sectors\n",
			  p->reserved, p->fat_count, p->fat_sectors, p->total_sectors);
		return EFI_UNSUPPORTED;
	}
	if (p->media != 0xf0 && p->media < 0xf8) {
		log_debug("not FAT: media byte 0x%02x\n", p->media);
		return EFI_UNSUPPORTED;
	}
	return EFI_SUCCESS;
}

/* The highest cluster number the FAT has room for, given its size in bytes. */
static UINT64 fat_capacity(enum fat_type type, UINT64 fat_bytes)
{
	if (type == FAT_12)
		return fat_bytes * 2 / 3 - 1;
	return fat_bytes / (type == FAT_16 ? 2 : 4) - 1;
}

static void extended_fields(const UINT8 *b, struct fat_geometry *geo)
{
	UINT32 base = geo->type == FAT_32 ? 64 : 36; /* the drive number */
	UINT8 signature = b[base + 2];

	if (signature == 0x28 || signature == 0x29)
		geo->state_offset = base + 1;
	if (signature == 0x29)
		geo->label_offset = base + 7;
}

/* FAT32's own fields: root cluster, FSInfo, backup boot sector, mirroring. */
static EFI_STATUS fat32_fields(const UINT8 *b, const struct bpb *p, struct fat_geometry *geo)
{
	UINT16 flags = fat_le16(b + 40), fsinfo = fat_le16(b + 48), backup = fat_le16(b + 50);

	if (p->root_entries != 0 || fat_le16(b + 42) != 0) { /* version 0.0 only */
		log_debug("FAT32 with %u root entries, version 0x%04x\n", p->root_entries,
			  fat_le16(b + 42));
		return EFI_VOLUME_CORRUPTED;
	}
	geo->root_cluster = fat_le32(b + 44);
	if (fsinfo != 0 && fsinfo != 0xffff && fsinfo < p->reserved)
		geo->fsinfo_offset = (UINT64)fsinfo * p->sector_size;
	if (backup != 0 && backup != 0xffff && backup < p->reserved)
		geo->backup_boot_offset = (UINT64)backup * p->sector_size;
	geo->mirrored = !(flags & 0x80);
	geo->active_fat = geo->mirrored ? 0 : flags & 0x0f;
	if (geo->active_fat >= p->fat_count) {
		log_debug("FAT32: active FAT %u of %u\n", geo->active_fat, p->fat_count);
		return EFI_VOLUME_CORRUPTED;
	}
	return EFI_SUCCESS;
}

/* Sizes of regions, cluster counts and the type. */
static EFI_STATUS layout(const struct bpb *p, bool fat32, UINT64 disk_bytes,
			 struct fat_geometry *geo)
{
	UINT64 root_sectors =
	    ((UINT64)p->root_entries * FAT_DIRENT_SIZE + p->sector_size - 1) / p->sector_size;
	UINT64 fat_start = p->reserved, data_start, clusters, on_disk;

	data_start = fat_start + p->fat_count * p->fat_sectors + root_sectors;
	if (data_start >= p->total_sectors || (!fat32 && p->root_entries == 0)) {
		log_debug("data starts at sector %llu of %llu, %u root entries\n", data_start,
			  p->total_sectors, p->root_entries);
		return EFI_VOLUME_CORRUPTED;
	}
	clusters = (p->total_sectors - data_start) / p->sectors_per_cluster;
	geo->type = fat32 ? FAT_32 : clusters <= FAT12_CLUSTERS_MAX ? FAT_12 : FAT_16;
	geo->sector_size = p->sector_size;
	geo->cluster_size = p->sector_size * p->sectors_per_cluster;
	geo->fat_count = p->fat_count;
	geo->fat_offset = fat_start * p->sector_size;
	geo->fat_bytes = p->fat_sectors * p->sector_size;
	geo->root_offset = (fat_start + p->fat_count * p->fat_sectors) * p->sector_size;
	geo->root_entries = fat32 ? 0 : p->root_entries;
	geo->data_offset = data_start * p->sector_size;
	geo->volume_bytes = p->total_sectors * p->sector_size;
	if (clusters == 0 || geo->data_offset > disk_bytes) {
		log_debug("no clusters: data at byte %llu of %llu\n", geo->data_offset, disk_bytes);
		return EFI_VOLUME_CORRUPTED;
	}
	clusters = MIN(clusters, geo->type == FAT_12   ? FAT12_CLUSTERS_MAX
				 : geo->type == FAT_16 ? FAT16_CLUSTERS_MAX
						       : FAT32_CLUSTERS_MAX);
	geo->cluster_count = (UINT32)clusters;
	/* Clusters the FAT cannot describe, or that lie past the end of the disk, are never
	 * used (a truncated image still mounts). */
	on_disk = (disk_bytes - geo->data_offset) / geo->cluster_size;
	geo->max_cluster =
	    (UINT32)MIN(clusters + 1, MIN(fat_capacity(geo->type, geo->fat_bytes), on_disk + 1));
	if (geo->max_cluster < 2) {
		log_debug("no cluster on the disk or in the FAT\n");
		return EFI_VOLUME_CORRUPTED;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_bpb_parse(const UINT8 *boot, UINT64 disk_bytes, struct fat_geometry *geo)
{
	struct bpb p;
	bool fat32 = fat_le16(boot + 22) == 0;
	EFI_STATUS status = read_common(boot, &p);

	*geo = (struct fat_geometry){0};
	geo->mirrored = true;
	if (EFI_ERROR(status))
		return status;
	status = layout(&p, fat32, disk_bytes, geo);
	if (!EFI_ERROR(status) && fat32)
		status = fat32_fields(boot, &p, geo);
	if (EFI_ERROR(status))
		return status;
	if (fat32 && (geo->root_cluster < 2 || geo->root_cluster > geo->max_cluster)) {
		log_debug("FAT32 root at cluster %u, outside 2..%u\n", geo->root_cluster,
			  geo->max_cluster);
		return EFI_VOLUME_CORRUPTED;
	}
	extended_fields(boot, geo);
	return EFI_SUCCESS;
}

bool fat_fsinfo_parse(const UINT8 *sector, UINT32 *free_count, UINT32 *next_free)
{
	if (fat_le32(sector) != FAT_FSINFO_LEAD || fat_le32(sector + 484) != FAT_FSINFO_STRUCT ||
	    fat_le32(sector + 508) != FAT_FSINFO_TRAIL)
		return false;
	*free_count = fat_le32(sector + FAT_FSINFO_FREE);
	*next_free = fat_le32(sector + FAT_FSINFO_NEXT);
	return true;
}
