/* Nodes: one per open file or directory, shared by its handles; finding them by path,
 * creating, renaming (moving between directories too) and deleting. An entry is opened
 * only if its data cannot be another's: no directory is its own ancestor (the root
 * included) and no file starts in a directory above it or claims more than its chain. */
#define LOG_PREFIX "fat: "
#include "fat.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/path.h>
#include <ember/lib/str.h>

UINT32 fat_node_first_cluster(const struct fat_node *node)
{
	if (node->is_root && node->vol->geo.type != FAT_32)
		return 0;
	return fat_dirent_cluster(&node->de);
}

void fat_node_ref(struct fat_node *node)
{
	node->refs++;
}

void fat_node_unref(struct fat_node *node)
{
	while (node && --node->refs == 0) {
		struct fat_node *parent = node->parent;

		list_del(&node->link);
		fat_dir_free(node->dir);
		pool_free(node->name);
		pool_free(node);
		node = parent;
	}
}

bool fat_node_in_ancestry(struct fat_node *dir, UINT32 cluster)
{
	for (struct fat_node *n = dir; n; n = n->parent)
		if (fat_node_first_cluster(n) == cluster ||
		    (n->dir && fat_dir_holds(n->dir, cluster)))
			return true;
	return false;
}

/* A file's chain holds at least its size (a longer chain is tolerated, as elsewhere),
 * and that much of it lies outside the directories above it. */
static EFI_STATUS check_file_chain(struct fat_node *dir, const struct fat_entry *e)
{
	struct fat_volume *vol = dir->vol;
	UINT64 csize = vol->geo.cluster_size, need = (e->de.size + csize - 1) / csize;
	UINT32 c = fat_dirent_cluster(&e->de);

	if (need > vol->geo.max_cluster - 1) {
		log_debug("%ls: a size of %u bytes is more than the volume holds\n", e->name,
			  e->de.size);
		return EFI_VOLUME_CORRUPTED;
	}
	for (UINT64 have = 1; have < need; have++) {
		EFI_STATUS status = fat_next(vol, c, &c);

		if (!EFI_ERROR(status) && c == FAT_EOC)
			status = EFI_VOLUME_CORRUPTED;
		if (EFI_ERROR(status)) {
			log_debug("%ls: a size of %u bytes is more than its chain holds\n", e->name,
				  e->de.size);
			return status;
		}
		if (fat_node_in_ancestry(dir, c)) {
			log_debug("%ls: its chain runs into a directory above it\n", e->name);
			return EFI_VOLUME_CORRUPTED;
		}
	}
	return EFI_SUCCESS;
}

/* Whether the entry e of dir may be opened. */
static EFI_STATUS check_entry(struct fat_node *dir, const struct fat_entry *e)
{
	struct fat_volume *vol = dir->vol;
	UINT32 c = fat_dirent_cluster(&e->de);
	bool is_dir = e->de.attr & FAT_ATTR_DIRECTORY;
	EFI_STATUS status = EFI_SUCCESS;

	if (c == 0 && (is_dir || e->de.size)) {
		/* Cluster 0 stands for the root only in a '..' entry. */
		log_debug("%ls: no first cluster\n", e->name);
		return EFI_VOLUME_CORRUPTED;
	}
	if (c == 0)
		return EFI_SUCCESS;
	if (c < 2 || c > vol->geo.max_cluster) {
		log_debug("%ls: first cluster %u is outside the volume\n", e->name, c);
		return EFI_VOLUME_CORRUPTED;
	}
	if (fat_node_in_ancestry(dir, c)) {
		log_debug("%ls: cluster %u belongs to a directory above it\n", e->name, c);
		return EFI_VOLUME_CORRUPTED;
	}
	if (!is_dir && e->de.size > vol->geo.cluster_size) /* one cluster: checked above */
		status = check_file_chain(dir, e);
	return status;
}

/* A new node's checks; a directory is read at once, so that damage shows at Open. */
static EFI_STATUS check_new(struct fat_node *n, const struct fat_entry *e)
{
	EFI_STATUS status = check_entry(n->parent, e);

	if (!EFI_ERROR(status) && n->is_dir)
		status = fat_dir_load(n);
	return status;
}

EFI_STATUS fat_node_get(struct fat_node *dir, const struct fat_entry *e, struct fat_node **out)
{
	struct fat_volume *vol = dir->vol;
	struct fat_node *n;
	EFI_STATUS status;

	list_for_each_entry (n, &vol->nodes, link) {
		if (n->parent == dir && n->slot == e->slot && !n->deleted) {
			fat_node_ref(n);
			*out = n;
			return EFI_SUCCESS;
		}
	}
	n = pool_alloc(sizeof(*n));
	if (!n || !(n->name = pool_dup(e->name, (e->name_len + 1) * sizeof(CHAR16)))) {
		pool_free(n);
		return EFI_OUT_OF_RESOURCES;
	}
	list_init(&n->recent);
	list_add(&n->link, &vol->nodes);
	n->vol = vol;
	n->parent = dir;
	fat_node_ref(dir);
	n->refs = 1;
	n->serial = ++vol->next_serial;
	n->is_dir = e->de.attr & FAT_ATTR_DIRECTORY;
	n->slot = e->slot;
	n->lfn_count = e->lfn_count;
	n->de = e->de;
	status = check_new(n, e);
	if (EFI_ERROR(status)) {
		fat_node_unref(n);
		return status;
	}
	*out = n;
	return EFI_SUCCESS;
}

void fat_node_touch_dir(struct fat_node *dir)
{
	struct fat_volume *vol = dir->vol;
	struct fat_node *old;

	if (dir->is_root || vol->gone || dir->deleted)
		return;
	if (!list_empty(&dir->recent)) {
		list_del(&dir->recent);
		list_add(&dir->recent, &vol->recent);
		return;
	}
	fat_node_ref(dir);
	list_add(&dir->recent, &vol->recent);
	if (++vol->recent_count <= FAT_RECENT_DIRS)
		return;
	old = list_entry(vol->recent.prev, struct fat_node, recent);
	list_del(&old->recent);
	vol->recent_count--;
	fat_node_unref(old);
}

static void drop_recent(struct fat_node *dir)
{
	if (list_empty(&dir->recent))
		return;
	list_del(&dir->recent);
	dir->vol->recent_count--;
	fat_node_unref(dir);
}

/* Looks up one path component in dir and opens its node. */
static EFI_STATUS step(struct fat_node *dir, const CHAR16 *name, size_t len, struct fat_node **out)
{
	struct fat_entry *e = pool_alloc(sizeof(*e));
	EFI_STATUS status = e ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;

	len = fat_name_trim(name, len);
	if (!EFI_ERROR(status) && (!dir->is_dir || len == 0))
		status = EFI_NOT_FOUND;
	if (!EFI_ERROR(status))
		status = fat_dir_lookup(dir, name, len, e);
	if (!EFI_ERROR(status))
		status = fat_node_get(dir, e, out);
	if (!EFI_ERROR(status))
		fat_node_touch_dir(dir);
	pool_free(e);
	return status;
}

EFI_STATUS fat_node_walk(struct fat_node *start, const CHAR16 *path, struct fat_node **out)
{
	struct fat_node *node = start;
	const CHAR16 *cursor = path, *name;
	size_t len;

	if (start->vol->gone)
		return start->vol->gone;
	fat_node_ref(node);
	while ((len = path_next(&cursor, &name)) > 0) {
		struct fat_node *child;
		EFI_STATUS status = step(node, name, len, &child);

		fat_node_unref(node);
		if (EFI_ERROR(status))
			return status;
		node = child;
	}
	*out = node;
	return EFI_SUCCESS;
}

EFI_STATUS fat_node_path(struct fat_node *node, CHAR16 **path)
{
	size_t units = 2, at;
	CHAR16 *p;

	for (struct fat_node *n = node; n && !n->is_root; n = n->parent)
		units += str16_len(n->name) + 1;
	p = pool_alloc(units * sizeof(CHAR16));
	if (!p)
		return EFI_OUT_OF_RESOURCES;
	/* Built from the end, then moved to the front. */
	at = units - 1;
	p[at] = 0;
	for (struct fat_node *n = node; n && !n->is_root; n = n->parent) {
		size_t len = str16_len(n->name);

		at -= len;
		mem_copy(p + at, n->name, len * sizeof(CHAR16));
		p[--at] = u'\\';
	}
	if (at == units - 1)
		p[--at] = u'\\'; /* the root */
	mem_copy(p, p + at, (units - at) * sizeof(CHAR16));
	*path = p;
	return EFI_SUCCESS;
}

EFI_STATUS fat_node_store(struct fat_node *node)
{
	if (node->is_root || node->deleted)
		return EFI_SUCCESS;
	return fat_dir_write_entry(node->parent, node->slot, &node->de);
}

/* A new directory's first cluster: zeroed, with "." and "..". */
static EFI_STATUS make_dir_cluster(struct fat_node *parent, struct fat_dirent *de)
{
	struct fat_volume *vol = parent->vol;
	struct fat_dirent dots[2];
	UINT32 cluster, got;
	EFI_STATUS status = fat_alloc(vol, 0, 1, &cluster, &got);

	if (EFI_ERROR(status))
		return status;
	status = fat_zero_clusters(vol, cluster, 1);
	dots[0] = *de;
	mem_copy(dots[0].name, ".          ", 11);
	fat_dirent_set_cluster(&dots[0], cluster);
	dots[1] = dots[0];
	dots[1].name[1] = '.';
	/* ".." of a directory in the root says 0, on FAT32 too. */
	fat_dirent_set_cluster(&dots[1], parent->is_root ? 0 : fat_node_first_cluster(parent));
	if (!EFI_ERROR(status))
		status = fat_disk_write(vol, fat_cluster_offset(vol, cluster), sizeof(dots), dots);
	if (EFI_ERROR(status)) {
		fat_free_chain(vol, cluster);
		return status;
	}
	fat_dirent_set_cluster(de, cluster);
	return EFI_SUCCESS;
}

EFI_STATUS fat_node_create(struct fat_node *dir, const CHAR16 *name, size_t len, UINT8 attr,
			   struct fat_node **out)
{
	struct fat_dirent de = {0};
	struct fat_entry *e;
	EFI_STATUS status;

	len = fat_name_trim(name, len);
	if (!fat_name_valid(name, len))
		return EFI_INVALID_PARAMETER;
	e = pool_alloc(sizeof(*e));
	if (!e)
		return EFI_OUT_OF_RESOURCES;
	de.attr = attr & (FAT_ATTR_MASK & ~FAT_ATTR_VOLUME_ID);
	fat_now(&de.create_date, &de.create_time, &de.create_tenths);
	de.write_date = de.access_date = de.create_date;
	de.write_time = de.create_time;
	status = fat_dir_lookup(dir, name, len, e);
	if (!EFI_ERROR(status))
		status = EFI_ACCESS_DENIED;
	else if (status == EFI_NOT_FOUND)
		status = de.attr & FAT_ATTR_DIRECTORY ? make_dir_cluster(dir, &de) : EFI_SUCCESS;
	if (!EFI_ERROR(status)) {
		status = fat_dir_add(dir, name, len, &de, e);
		if (EFI_ERROR(status) && fat_dirent_cluster(&de))
			fat_free_chain(dir->vol, fat_dirent_cluster(&de));
	}
	if (!EFI_ERROR(status))
		status = fat_node_get(dir, e, out);
	pool_free(e);
	return status;
}

/* Points a moved directory's ".." at (what will be) its parent. */
static EFI_STATUS fix_dot_dot(struct fat_node *node, struct fat_node *parent)
{
	struct fat_volume *vol = node->vol;
	UINT32 first = fat_node_first_cluster(node);
	UINT64 offset = fat_cluster_offset(vol, first) + FAT_DIRENT_SIZE;
	struct fat_dirent de;
	EFI_STATUS status;

	if (first < 2 || first > vol->geo.max_cluster)
		return EFI_VOLUME_CORRUPTED;
	status = fat_disk_read(vol, offset, sizeof(de), &de);
	if (EFI_ERROR(status) || mem_cmp(de.name, "..         ", 11) != 0)
		return status; /* no ".." to fix */
	fat_dirent_set_cluster(&de, parent->is_root ? 0 : fat_node_first_cluster(parent));
	vol->meta_gen++;
	return fat_disk_write(vol, offset, sizeof(de), &de);
}

/* Checks a rename's target: free, or the node's own entry (a change of case). */
static EFI_STATUS check_target(struct fat_node *node, struct fat_node *parent, const CHAR16 *name,
			       size_t len, struct fat_entry *e)
{
	EFI_STATUS status;

	for (struct fat_node *p = parent; p; p = p->parent)
		if (p == node)
			return EFI_ACCESS_DENIED; /* into itself */
	status = fat_dir_load(node->parent);
	if (!EFI_ERROR(status))
		status = fat_dir_lookup(parent, name, len, e);
	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return status;
	return parent == node->parent && e->slot == node->slot ? EFI_SUCCESS : EFI_ACCESS_DENIED;
}

/* The node takes its new entry (name already copied to pool memory). */
static void adopt(struct fat_node *node, struct fat_node *parent, const struct fat_entry *e,
		  CHAR16 *name)
{
	struct fat_node *old = node->parent;

	mem_copy(name, e->name, (e->name_len + 1) * sizeof(CHAR16));
	pool_free(node->name);
	node->name = name;
	node->de = e->de;
	node->slot = e->slot;
	node->lfn_count = e->lfn_count;
	if (parent != old) {
		fat_node_ref(parent);
		node->parent = parent;
		fat_node_unref(old);
	}
}

/* Writes the new entry while the old one still stands, so that a failure in between
 * loses nothing; then removes the old one. The old one's names are left out of the index
 * meanwhile (a change of case keeps its 8.3 name); on failure all is undone. */
static EFI_STATUS move_entry(struct fat_node *node, struct fat_node *parent, const CHAR16 *name,
			     size_t len, struct fat_entry *e)
{
	struct fat_node *old_parent = node->parent;
	struct fat_index_entry old;
	bool taken = fat_index_take(old_parent, node->slot, &old);
	EFI_STATUS status = fat_dir_add(parent, name, len, &node->de, e);

	if (!EFI_ERROR(status)) {
		status = fat_dir_remove(old_parent, node->slot, node->lfn_count);
		if (EFI_ERROR(status) && EFI_ERROR(fat_dir_remove(parent, e->slot, e->lfn_count)))
			fat_volume_damaged(node->vol); /* the file has two names */
	}
	if (EFI_ERROR(status) && taken)
		fat_index_restore(old_parent, &old);
	return status;
}

EFI_STATUS fat_node_rename(struct fat_node *node, struct fat_node *parent, const CHAR16 *name,
			   size_t len)
{
	bool moves_dir = node->is_dir && parent != node->parent;
	struct fat_node *old_parent = node->parent;
	struct fat_entry *e;
	CHAR16 *copy;
	EFI_STATUS status;

	len = fat_name_trim(name, len);
	if (node->is_root || node->deleted)
		return EFI_ACCESS_DENIED;
	if (!fat_name_valid(name, len))
		return EFI_INVALID_PARAMETER;
	e = pool_alloc(sizeof(*e));
	copy = pool_alloc((len + 1) * sizeof(CHAR16));
	status = e && copy ? check_target(node, parent, name, len, e) : EFI_OUT_OF_RESOURCES;
	/* A moved directory's '..' first, so that it is undone last. */
	if (!EFI_ERROR(status) && moves_dir)
		status = fix_dot_dot(node, parent);
	if (!EFI_ERROR(status)) {
		status = move_entry(node, parent, name, len, e);
		if (EFI_ERROR(status) && moves_dir && EFI_ERROR(fix_dot_dot(node, old_parent)))
			fat_volume_damaged(node->vol);
	}
	if (!EFI_ERROR(status)) {
		adopt(node, parent, e, copy);
		copy = NULL;
	}
	pool_free(copy);
	pool_free(e);
	return status;
}

EFI_STATUS fat_node_delete(struct fat_node *node)
{
	bool empty = true;
	EFI_STATUS status = EFI_SUCCESS;
	UINT32 first;

	if (node->is_root || node->deleted)
		return EFI_ACCESS_DENIED;
	if (node->is_dir)
		status = fat_dir_is_empty(node, &empty);
	if (!EFI_ERROR(status) && !empty)
		status = EFI_ACCESS_DENIED;
	if (!EFI_ERROR(status))
		status = fat_data_check_chain(node, fat_dirent_cluster(&node->de));
	if (!EFI_ERROR(status))
		status = fat_dir_remove(node->parent, node->slot, node->lfn_count);
	if (EFI_ERROR(status))
		return status;
	first = fat_dirent_cluster(&node->de);
	node->deleted = true;
	node->generation++;
	drop_recent(node);
	return first ? fat_free_chain(node->vol, first) : EFI_SUCCESS;
}
