/* File contents: reading and writing through the cluster chain in runs of contiguous
 * clusters (one disk request per run), a per-handle cursor so that the chain is walked
 * from where the last request ended, growing files with zero-filled gaps, truncating. */
#define LOG_PREFIX "fat: "
#include "fat.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

/* The cluster holding chain position index (0-based), from the cursor when it can. */
static EFI_STATUS seek(struct fat_node *node, struct fat_cursor *cur, UINT32 index, UINT32 *cluster)
{
	struct fat_volume *vol = node->vol;
	UINT32 c = fat_dirent_cluster(&node->de), i = 0;

	if (cur->cluster && cur->generation == node->generation && cur->index <= index) {
		c = cur->cluster;
		i = cur->index;
	} else if (c < 2) {
		return EFI_VOLUME_CORRUPTED;
	}
	for (; i < index; i++) {
		EFI_STATUS status = fat_next(vol, c, &c);

		if (EFI_ERROR(status))
			return status;
		if (c == FAT_EOC)
			return EFI_VOLUME_CORRUPTED; /* shorter than the file */
	}
	*cur = (struct fat_cursor){node->generation, index, c};
	*cluster = c;
	return EFI_SUCCESS;
}

/* Extends a run starting at cluster up to want clusters while the chain is contiguous;
 * leaves the cursor on the run's last cluster. Returns the run's length. */
static EFI_STATUS run_length(struct fat_node *node, struct fat_cursor *cur, UINT32 cluster,
			     UINT64 want, UINT32 *run)
{
	UINT32 last = cluster, n = 1;

	while (n < want) {
		UINT32 next;
		EFI_STATUS status = fat_next(node->vol, last, &next);

		if (EFI_ERROR(status))
			return status;
		if (next != last + 1)
			break;
		last = next;
		n++;
	}
	cur->index += n - 1;
	cur->cluster = last;
	*run = n;
	return EFI_SUCCESS;
}

/* Moves size bytes at offset between buffer and the file's clusters; a NULL source
 * writes zeros. */
static EFI_STATUS transfer(struct fat_node *node, struct fat_cursor *cur, UINT64 offset,
			   UINT64 size, UINT8 *buffer, bool write)
{
	struct fat_volume *vol = node->vol;
	UINT32 csize = vol->geo.cluster_size;

	while (size) {
		UINT32 within = (UINT32)(offset % csize), cluster, run;
		UINT64 bytes, at;
		EFI_STATUS status = seek(node, cur, (UINT32)(offset / csize), &cluster);

		if (!EFI_ERROR(status))
			status = run_length(node, cur, cluster, (within + size + csize - 1) / csize,
					    &run);
		if (EFI_ERROR(status))
			return status;
		bytes = MIN(size, (UINT64)run * csize - within);
		if (write && !buffer)
			bytes = MIN(bytes, (UINT64)FAT_ZERO_SIZE);
		at = fat_cluster_offset(vol, cluster) + within;
		if (!write)
			status = fat_disk_read(vol, at, (UINTN)bytes, buffer);
		else
			status =
			    fat_disk_write(vol, at, (UINTN)bytes, buffer ? buffer : vol->zeros);
		if (EFI_ERROR(status))
			return status;
		offset += bytes;
		size -= bytes;
		if (buffer)
			buffer += bytes;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_data_read(struct fat_node *node, struct fat_cursor *cur, UINT64 offset, UINTN size,
			 void *buffer)
{
	return transfer(node, cur, offset, size, buffer, false);
}

static EFI_STATUS write_zeros(struct fat_node *node, struct fat_cursor *cur, UINT64 offset,
			      UINT64 size)
{
	struct fat_volume *vol = node->vol;

	if (!vol->zeros && size) {
		vol->zeros = pool_alloc(FAT_ZERO_SIZE);
		if (!vol->zeros)
			return EFI_OUT_OF_RESOURCES;
	}
	return transfer(node, cur, offset, size, NULL, true);
}

/* Makes the chain cover `bytes` bytes, reusing clusters already chained past the end of
 * the file before allocating. *capacity: the bytes the chain now covers. */
static EFI_STATUS ensure(struct fat_node *node, struct fat_cursor *cur, UINT64 bytes,
			 UINT64 *capacity)
{
	struct fat_volume *vol = node->vol;
	UINT32 csize = vol->geo.cluster_size, have, need, last = 0, first, got = 0;
	EFI_STATUS status = EFI_SUCCESS;

	need = (UINT32)((bytes + csize - 1) / csize);
	have = (UINT32)((node->de.size + (UINT64)csize - 1) / csize);
	if (have == 0 && fat_dirent_cluster(&node->de) >= 2)
		have = 1; /* an empty file that owns a cluster anyway */
	if (have > 0)
		status = seek(node, cur, have - 1, &last);
	while (!EFI_ERROR(status) && have > 0 && have < need) {
		UINT32 next;

		status = fat_next(vol, last, &next);
		if (EFI_ERROR(status) || next == FAT_EOC)
			break;
		if (fat_node_in_ancestry(node->parent, next)) {
			log_debug("%ls: its chain runs into a directory above it\n",
				  fat_node_shown(node));
			status = EFI_VOLUME_CORRUPTED;
			break;
		}
		last = next;
		have++;
	}
	if (!EFI_ERROR(status) && have < need) {
		status = fat_alloc(vol, last, need - have, &first, &got);
		if (have == 0 && got)
			fat_dirent_set_cluster(&node->de, first);
		have += got;
	}
	*capacity = (UINT64)have * csize;
	return status;
}

static EFI_STATUS truncate(struct fat_node *node, UINT64 size);

EFI_STATUS fat_data_write(struct fat_node *node, struct fat_cursor *cur, UINT64 offset, UINTN *size,
			  const void *buffer)
{
	UINT64 old = node->de.size, want = *size, capacity = 0, n = 0;
	EFI_STATUS status = EFI_SUCCESS, limit = EFI_SUCCESS;

	*size = 0;
	if (offset >= FAT_FILE_SIZE_MAX || want > FAT_FILE_SIZE_MAX - offset) {
		want = offset < FAT_FILE_SIZE_MAX ? FAT_FILE_SIZE_MAX - offset : 0;
		limit = EFI_VOLUME_FULL; /* FAT files end at 4 GiB - 1 */
	}
	if (want == 0)
		return limit;
	status = ensure(node, cur, offset + want, &capacity);
	if (status != EFI_SUCCESS && status != EFI_VOLUME_FULL)
		return status;
	if (offset > old)
		limit = write_zeros(node, cur, old, MIN(offset, capacity) - MIN(old, capacity));
	if (capacity > offset && !EFI_ERROR(limit)) {
		n = MIN(want, capacity - offset);
		limit = transfer(node, cur, offset, n, (UINT8 *)buffer, true);
		if (EFI_ERROR(limit))
			n = 0;
	}
	if (n && offset + n > old)
		node->de.size = (UINT32)(offset + n);
	else if (n == 0 && capacity > old)
		truncate(node, old); /* nothing written: give back what was allocated */
	*size = (UINTN)n;
	return EFI_ERROR(limit) ? limit : status;
}

EFI_STATUS fat_data_check_chain(struct fat_node *node, UINT32 cluster)
{
	struct fat_loop_guard guard;
	EFI_STATUS status = EFI_SUCCESS;

	/* A chain that breaks or loops ends here, as fat_free_chain stops there too. */
	fat_loop_init(&guard, cluster);
	while (!EFI_ERROR(status) && cluster >= 2 && cluster != FAT_EOC) {
		if (fat_node_in_ancestry(node->parent, cluster)) {
			log_debug("%ls: its chain runs into a directory above it\n",
				  fat_node_shown(node));
			return EFI_VOLUME_CORRUPTED;
		}
		status = fat_next(node->vol, cluster, &cluster);
		if (!EFI_ERROR(status) && cluster != FAT_EOC && fat_loop_seen(&guard, cluster))
			break;
	}
	return EFI_SUCCESS;
}

/* Frees the chain from cluster on, unless a directory's clusters are in it. */
static EFI_STATUS free_from(struct fat_node *node, UINT32 cluster)
{
	EFI_STATUS status = fat_data_check_chain(node, cluster);

	return EFI_ERROR(status) ? status : fat_free_chain(node->vol, cluster);
}

/* Ends the chain after its first keep (>= 1) clusters, freeing the rest. */
static EFI_STATUS cut_chain(struct fat_node *node, UINT32 keep)
{
	struct fat_volume *vol = node->vol;
	struct fat_cursor cur = {0};
	UINT32 last, next;
	EFI_STATUS status = seek(node, &cur, keep - 1, &last);

	node->generation++;
	if (!EFI_ERROR(status))
		status = fat_next(vol, last, &next);
	if (!EFI_ERROR(status) && next != FAT_EOC) {
		status = fat_data_check_chain(node, next);
		if (!EFI_ERROR(status))
			status = fat_set(vol, last, fat_eoc_mark(vol));
		if (!EFI_ERROR(status))
			status = fat_free_chain(vol, next);
	}
	return status;
}

static EFI_STATUS truncate(struct fat_node *node, UINT64 size)
{
	struct fat_volume *vol = node->vol;
	UINT32 csize = vol->geo.cluster_size, keep = (UINT32)((size + csize - 1) / csize);
	UINT32 first = fat_dirent_cluster(&node->de);
	EFI_STATUS status;

	if (keep == 0) {
		node->generation++;
		fat_dirent_set_cluster(&node->de, 0);
		node->de.size = 0;
		return first >= 2 ? free_from(node, first) : EFI_SUCCESS;
	}
	status = cut_chain(node, keep);
	if (!EFI_ERROR(status))
		node->de.size = (UINT32)size;
	return status;
}

EFI_STATUS fat_data_restore(struct fat_node *node, const struct fat_dirent *before)
{
	UINT32 csize = node->vol->geo.cluster_size, first = fat_dirent_cluster(&node->de);
	UINT32 keep = (UINT32)((before->size + (UINT64)csize - 1) / csize);
	EFI_STATUS status = EFI_SUCCESS;

	if (fat_dirent_cluster(before) < 2 && first >= 2) {
		node->generation++;
		status = fat_free_chain(node->vol, first);
	} else if (first >= 2) {
		status = cut_chain(node, MAX(keep, 1u));
	}
	node->de = *before;
	return status;
}

EFI_STATUS fat_data_trim(struct fat_node *node, UINT32 old_first)
{
	UINT32 csize = node->vol->geo.cluster_size;
	UINT32 keep = (UINT32)((node->de.size + (UINT64)csize - 1) / csize);

	if (fat_dirent_cluster(&node->de) < 2) {
		node->generation++;
		return old_first >= 2 ? free_from(node, old_first) : EFI_SUCCESS;
	}
	return cut_chain(node, MAX(keep, 1u));
}

EFI_STATUS fat_data_resize(struct fat_node *node, UINT64 size)
{
	UINT64 old = node->de.size, capacity;
	struct fat_cursor cur = {0};
	EFI_STATUS status;

	if (size > FAT_FILE_SIZE_MAX)
		return EFI_VOLUME_FULL;
	if (size <= old)
		return size == old ? EFI_SUCCESS : truncate(node, size);
	status = ensure(node, &cur, size, &capacity);
	if (!EFI_ERROR(status))
		status = write_zeros(node, &cur, old, size - old);
	if (EFI_ERROR(status)) {
		truncate(node, old); /* give back what was allocated */
		return status;
	}
	node->de.size = (UINT32)size;
	return EFI_SUCCESS;
}

EFI_STATUS fat_chain_bytes(struct fat_volume *vol, UINT32 cluster, UINT64 *bytes)
{
	struct fat_loop_guard guard;
	UINT64 count = 0;

	fat_loop_init(&guard, cluster);
	while (cluster >= 2 && cluster != FAT_EOC) {
		EFI_STATUS status = fat_next(vol, cluster, &cluster);

		if (EFI_ERROR(status))
			return status;
		if (cluster != FAT_EOC && fat_loop_seen(&guard, cluster))
			return EFI_VOLUME_CORRUPTED;
		count++;
	}
	*bytes = count * vol->geo.cluster_size;
	return EFI_SUCCESS;
}

EFI_STATUS fat_zero_clusters(struct fat_volume *vol, UINT32 first, UINT32 count)
{
	UINT32 csize = vol->geo.cluster_size, c = first;

	if (!vol->zeros) {
		vol->zeros = pool_alloc(FAT_ZERO_SIZE);
		if (!vol->zeros)
			return EFI_OUT_OF_RESOURCES;
	}
	for (UINT32 i = 0; i < count; i++) {
		for (UINT32 done = 0; done < csize;
		     done += MIN(csize - done, (UINT32)FAT_ZERO_SIZE)) {
			EFI_STATUS status =
			    fat_disk_write(vol, fat_cluster_offset(vol, c) + done,
					   MIN(csize - done, (UINT32)FAT_ZERO_SIZE), vol->zeros);
			if (EFI_ERROR(status))
				return status;
		}
		if (i + 1 < count) {
			EFI_STATUS status = fat_next(vol, c, &c);
			if (EFI_ERROR(status) || c == FAT_EOC)
				return EFI_ERROR(status) ? status : EFI_VOLUME_CORRUPTED;
		}
	}
	return EFI_SUCCESS;
}
