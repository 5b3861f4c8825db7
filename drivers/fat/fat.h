/* The FAT engine: a mounted volume over a byte-addressed disk, its FAT, directories and
 * files. No driver model and no EFI_FILE_PROTOCOL here (fat_efi.h builds those on top),
 * so unit tests and the fuzzer run it over a memory image.
 *
 * Every open file or directory is one fat_node, shared by all handles on it; a node holds
 * a reference to its parent, so a path of nodes stays valid while anything below is open.
 * Changes are written through at the end of each operation (fat_tx_end): FAT sectors to
 * every FAT copy, directory entries, FSInfo, and the boot sector's dirty flag is set only
 * while an operation is under way. */
#ifndef EMBER_FAT_H
#define EMBER_FAT_H

#include "fat_format.h"
#include <ember/lib/list.h>

/* The device a volume lives on. Errors: EFI_NO_MEDIA and EFI_MEDIA_CHANGED end the
 * mount; anything else is passed to the caller. */
struct fat_disk {
	EFI_STATUS (*read)(struct fat_disk *disk, UINT64 offset, UINTN size, void *buffer);
	EFI_STATUS (*write)(struct fat_disk *disk, UINT64 offset, UINTN size, const void *buffer);
	EFI_STATUS (*flush)(struct fat_disk *disk); /* optional */
	/* Optional: EFI_SUCCESS while the mounted medium is in, EFI_MEDIA_CHANGED when another
	 * one is (I/O goes to it from then on), EFI_NO_MEDIA when there is none. */
	EFI_STATUS (*check)(struct fat_disk *disk);
	UINT64 size; /* bytes */
	bool read_only;
};

#define FAT_WINDOW_SIZE 8192 /* bytes of FAT per cache window */
#define FAT_WINDOWS 16
#define FAT_RECENT_DIRS 8 /* directory nodes (and their indexes) kept while unused */

struct fat_window {
	UINT64 index; /* window number within the FAT */
	bool valid, dirty;
	UINT8 *data;
};

/* An entry of a directory's index: hashes of its names (upper-cased) and where it is. */
struct fat_index_entry {
	UINT32 long_hash, short_hash;
	UINT32 slot; /* the 8.3 entry */
	UINT32 next_long, next_short;
	UINT8 lfn_count;
	bool live;
	UINT8 short_name[11];
};

/* What a directory node knows about its directory once it has been scanned. */
struct fat_dir {
	UINT32 *clusters; /* the chain (not for a FAT12/16 root) */
	UINT32 cluster_count, cluster_cap;
	UINT32 *sorted; /* the chain in ascending order, once asked for (fat_dir_holds) */
	UINT32 slots;	/* entries the directory has room for */
	UINT32 end;	/* the first slot after the last one ever used */
	UINT64 *used;	/* bitmap: slots that are not free */
	UINT32 free_hint;
	bool dirty_tail; /* something other than zeros follows the end marker */
	struct fat_index_entry *entries;
	UINT32 count, cap, dead;
	UINT32 *long_buckets, *short_buckets;
	UINT32 bucket_mask;
};

struct fat_node {
	struct list link;   /* fat_volume.nodes */
	struct list recent; /* fat_volume.recent (directories), else empty */
	struct fat_volume *vol;
	struct fat_node *parent; /* NULL for the root */
	UINT32 refs;
	UINT32 serial; /* unique within the volume */
	bool is_dir, is_root, deleted;
	UINT32 slot;	      /* of the 8.3 entry in the parent */
	UINT8 lfn_count;      /* long-name entries before it */
	struct fat_dirent de; /* the entry as on disk (first cluster, size, times) */
	CHAR16 *name;
	UINT32 generation;   /* changes whenever the cluster chain shrinks */
	struct fat_dir *dir; /* directories, once scanned */
};

/* Buffered reading of directory slots. */
struct fat_reader {
	struct fat_node *dir;
	UINT32 serial, meta_gen;
	UINT32 first, count; /* slots held in buf */
	UINT8 *buf;
	UINT32 buf_size;
	UINT64 *mark; /* when set, slots seen in use are marked here */
};

/* One entry as a directory walk finds it. */
struct fat_entry {
	UINT32 slot;	 /* the 8.3 entry */
	UINT8 lfn_count; /* valid long-name entries before it */
	struct fat_dirent de;
	UINT32 name_len;
	CHAR16 name[FAT_NAME_MAX + 1]; /* the long name, else the 8.3 name as shown */
};

struct fat_volume {
	struct fat_disk *disk;
	EFI_UNICODE_COLLATION_PROTOCOL *uc;
	struct fat_geometry geo;
	bool read_only;
	EFI_STATUS gone; /* EFI_SUCCESS while mounted; else what every call gets */
	struct fat_window windows[FAT_WINDOWS];
	/* Free space (FSInfo on FAT32). */
	UINT32 free_count, next_free;
	bool free_known, fsinfo_dirty, has_fsinfo;
	/* The dirty flag: set on disk while an operation changes the volume. */
	UINT32 tx_depth;
	bool tx_marked, was_dirty; /* was_dirty: found dirty, or made inconsistent */
	UINT8 boot_state;
	EFI_STATUS tx_error;
	/* Nodes and caches. */
	struct fat_node *root;
	struct list nodes, recent;
	UINT32 recent_count, next_serial, meta_gen;
	struct fat_reader reader;
	UINT8 *zeros; /* FAT_ZERO_SIZE bytes of zeros for filling */
	/* The root directory's volume-label entry, once looked for. */
	bool label_known, label_in_root;
	UINT32 label_slot;
	UINT32 handles;	    /* open EFI_FILE_PROTOCOL handles (fat_efi.h) */
	void *owner;	    /* the file system instance using it; NULL once replaced */
	UINT64 fat_lookups; /* FAT entries read (tests check chains are not re-walked) */
};

#define FAT_ZERO_SIZE 65536
#define FAT_EOC 0xffffffffu /* fat_next(): the end of a chain */

/* Where a handle is in a file's chain, so reads go on from there. */
struct fat_cursor {
	UINT32 generation;
	UINT32 index;	/* the position's cluster number within the chain ... */
	UINT32 cluster; /* ... and the cluster itself; 0 when unset */
};

/* ---- Volume (fat_volume.c) ---- */

/* Mounts the FAT volume on disk. EFI_UNSUPPORTED when it holds no FAT file system. */
EFI_STATUS fat_mount(struct fat_disk *disk, EFI_UNICODE_COLLATION_PROTOCOL *uc,
		     struct fat_volume **out);
/* Ends the mount: every later call on it returns why (e.g. EFI_NO_MEDIA). The volume
 * stays allocated until fat_volume_free. */
void fat_volume_end(struct fat_volume *vol, EFI_STATUS why);
/* Frees a volume and all its nodes (call after fat_volume_end, with no handles left). */
void fat_volume_free(struct fat_volume *vol);

/* Disk access: refuse once the mount is gone, end it on media errors. */
EFI_STATUS fat_disk_read(struct fat_volume *vol, UINT64 offset, UINTN size, void *buffer);
EFI_STATUS fat_disk_write(struct fat_volume *vol, UINT64 offset, UINTN size, const void *buffer);

/* An operation that changes the volume begins (EFI_WRITE_PROTECTED when read-only) and
 * ends: the end writes what changed and clears the dirty flag; it returns status, or
 * the first error of writing back. */
EFI_STATUS fat_tx_begin(struct fat_volume *vol);
EFI_STATUS fat_tx_end(struct fat_volume *vol, EFI_STATUS status);
/* A change failed and undoing it on disk failed too: the volume may be inconsistent, so
 * its dirty flag stays set from now on (fsck is to look at it). */
void fat_volume_damaged(struct fat_volume *vol);
/* Writes everything and asks the disk to flush its cache. */
EFI_STATUS fat_volume_flush(struct fat_volume *vol);

/* Free space in clusters (counted on first use when FSInfo does not say). */
EFI_STATUS fat_free_clusters(struct fat_volume *vol, UINT32 *count);

/* The volume label as shown (root directory label entry, else the boot sector). */
EFI_STATUS fat_label_get(struct fat_volume *vol, CHAR16 *label, size_t units);
/* Sets the label in the boot sector(s) and the root directory. EFI_INVALID_PARAMETER
 * for more than 11 characters or characters a label cannot hold. */
EFI_STATUS fat_label_set(struct fat_volume *vol, const CHAR16 *label);

/* The cluster's byte offset on disk. */
static inline UINT64 fat_cluster_offset(const struct fat_volume *vol, UINT32 cluster)
{
	return vol->geo.data_offset + (UINT64)(cluster - 2) * vol->geo.cluster_size;
}

/* The current time in FAT format. */
void fat_now(UINT16 *date, UINT16 *time, UINT8 *tenths);

/* ---- The FAT (fat_table.c) ---- */

EFI_STATUS fat_get(struct fat_volume *vol, UINT32 cluster, UINT32 *value);
EFI_STATUS fat_set(struct fat_volume *vol, UINT32 cluster, UINT32 value);
/* The cluster after cluster in its chain, or FAT_EOC; EFI_VOLUME_CORRUPTED when the
 * entry is free, bad or out of range. */
EFI_STATUS fat_next(struct fat_volume *vol, UINT32 cluster, UINT32 *next);
/* Allocates up to count clusters as a chain, linked after prev when prev is not 0.
 * *got says how many; EFI_VOLUME_FULL when fewer than count were free. */
EFI_STATUS fat_alloc(struct fat_volume *vol, UINT32 prev, UINT32 count, UINT32 *first, UINT32 *got);
/* Frees the chain starting at cluster (stopping at its end or at damage). */
EFI_STATUS fat_free_chain(struct fat_volume *vol, UINT32 cluster);
/* Notices a cluster chain that runs in a circle (Brent's method: constant memory). */
struct fat_loop_guard {
	UINT32 saved, power, steps;
};

static inline void fat_loop_init(struct fat_loop_guard *g, UINT32 first)
{
	*g = (struct fat_loop_guard){first, 1, 0};
}

/* True when next was seen before on this walk. */
static inline bool fat_loop_seen(struct fat_loop_guard *g, UINT32 next)
{
	if (next == g->saved)
		return true;
	if (++g->steps == g->power) {
		g->saved = next;
		g->power <<= 1;
		g->steps = 0;
	}
	return false;
}

/* Writes dirty FAT windows to every FAT copy. */
EFI_STATUS fat_table_flush(struct fat_volume *vol);
/* True when a FAT window holds changes not yet written. */
bool fat_table_dirty(const struct fat_volume *vol);
/* Counts free clusters by reading the whole FAT. */
EFI_STATUS fat_table_count_free(struct fat_volume *vol, UINT32 *count);
/* The value meaning "end of chain" for this FAT type. */
UINT32 fat_eoc_mark(const struct fat_volume *vol);

/* ---- Directories (fat_dir.c, fat_index.c, fat_dirent.c) ---- */

/* Scans a directory node once: its chain, free slots and name index. */
EFI_STATUS fat_dir_load(struct fat_node *dir);
/* Starts reading a directory's slots through the volume's reader. */
struct fat_reader *fat_reader_begin(struct fat_node *dir);
/* The raw 32 bytes of one slot; EFI_NOT_FOUND past the directory's last slot. */
EFI_STATUS fat_reader_get(struct fat_reader *r, UINT32 slot, const UINT8 **raw);
/* From *slot on, the next file or directory entry ('.' and '..' included); *slot moves
 * past it. EFI_NOT_FOUND at the end of the directory. */
EFI_STATUS fat_dir_next(struct fat_reader *r, UINT32 *slot, struct fat_entry *e);
/* Reads the entry whose 8.3 entry is at slot with lfn_count long-name entries. */
EFI_STATUS fat_dir_entry_at(struct fat_node *dir, UINT32 slot, UINT8 lfn_count,
			    struct fat_entry *e);
/* Finds name (case-insensitively, long or 8.3 form). EFI_NOT_FOUND when absent. */
EFI_STATUS fat_dir_lookup(struct fat_node *dir, const CHAR16 *name, size_t len,
			  struct fat_entry *e);
/* Adds an entry named name with de's contents (its name fields are made here); fills e. */
EFI_STATUS fat_dir_add(struct fat_node *dir, const CHAR16 *name, size_t len,
		       const struct fat_dirent *de, struct fat_entry *e);
/* Finds count free consecutive slots, growing the directory when needed. */
EFI_STATUS fat_dir_alloc_slots(struct fat_node *dir, UINT32 count, UINT32 *slot);
/* Records slots as used or free in the directory's bitmap. */
void fat_dir_mark(struct fat_node *dir, UINT32 slot, UINT32 count, bool used);
/* Marks the entry's slots free. */
EFI_STATUS fat_dir_remove(struct fat_node *dir, UINT32 slot, UINT8 lfn_count);
/* Rewrites one 8.3 entry in place. */
EFI_STATUS fat_dir_write_entry(struct fat_node *dir, UINT32 slot, const struct fat_dirent *de);
/* Reads and writes raw slots (count * 32 bytes). */
EFI_STATUS fat_dir_read_slots(struct fat_node *dir, UINT32 slot, UINT32 count, void *buf);
EFI_STATUS fat_dir_write_slots(struct fat_node *dir, UINT32 slot, UINT32 count, const void *buf);
/* True when the directory holds nothing but '.' and '..'. */
EFI_STATUS fat_dir_is_empty(struct fat_node *dir, bool *empty);
/* True when cluster is in the directory's chain. */
bool fat_dir_holds(struct fat_dir *d, UINT32 cluster);
/* Frees a directory's scan state. */
void fat_dir_free(struct fat_dir *d);

/* Index maintenance (fat_index.c). */
EFI_STATUS fat_index_add(struct fat_node *dir, const struct fat_entry *e);
void fat_index_remove(struct fat_node *dir, UINT32 slot);
/* Takes the entry of slot out of the index, kept in saved for fat_index_restore; false
 * when there is none. */
bool fat_index_take(struct fat_node *dir, UINT32 slot, struct fat_index_entry *saved);
EFI_STATUS fat_index_restore(struct fat_node *dir, const struct fat_index_entry *saved);
bool fat_index_short_taken(struct fat_node *dir, const UINT8 short_name[11]);
UINT32 fat_name_hash(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *name, size_t len);

/* ---- Nodes (fat_node.c) ---- */

/* The node for an entry of dir (shared with any handle already on it). */
EFI_STATUS fat_node_get(struct fat_node *dir, const struct fat_entry *e, struct fat_node **out);
void fat_node_ref(struct fat_node *node);
void fat_node_unref(struct fat_node *node);
/* Opens the node a normalised path names, starting from directory start (the root for
 * an absolute path). */
EFI_STATUS fat_node_walk(struct fat_node *start, const CHAR16 *path, struct fat_node **out);
/* The node's normalised absolute path, in new pool memory. */
EFI_STATUS fat_node_path(struct fat_node *node, CHAR16 **path);
/* Creates a file or (FAT_ATTR_DIRECTORY) directory named name in dir. */
EFI_STATUS fat_node_create(struct fat_node *dir, const CHAR16 *name, size_t len, UINT8 attr,
			   struct fat_node **out);
/* Moves and/or renames node to name inside new_parent. */
EFI_STATUS fat_node_rename(struct fat_node *node, struct fat_node *new_parent, const CHAR16 *name,
			   size_t len);
/* Deletes the file or empty directory (EFI_ACCESS_DENIED when not empty, or the root). */
EFI_STATUS fat_node_delete(struct fat_node *node);
/* Writes the node's 8.3 entry back to its directory. */
EFI_STATUS fat_node_store(struct fat_node *node);
/* Keeps a directory node (and its index) cached for a while after use. */
void fat_node_touch_dir(struct fat_node *dir);
/* The node's name as log lines show it ("\\" for the root). */
static inline const CHAR16 *fat_node_shown(const struct fat_node *node)
{
	return node->is_root ? u"\\" : node->name;
}
/* The first cluster of a directory's data (0 for a FAT12/16 root). */
UINT32 fat_node_first_cluster(const struct fat_node *node);
/* True when cluster is in the chain of dir or of a directory above it (the root
 * included): a directory or file starting there would be a loop or a cross-link. */
bool fat_node_in_ancestry(struct fat_node *dir, UINT32 cluster);

/* ---- File data (fat_data.c) ---- */

/* Reads size bytes at offset (the caller keeps within the file). */
EFI_STATUS fat_data_read(struct fat_node *node, struct fat_cursor *cur, UINT64 offset, UINTN size,
			 void *buffer);
/* Writes at offset, growing the file (a gap reads as zeros). *size becomes the bytes
 * written, fewer on EFI_VOLUME_FULL. */
EFI_STATUS fat_data_write(struct fat_node *node, struct fat_cursor *cur, UINT64 offset, UINTN *size,
			  const void *buffer);
/* Truncates or extends (with zeros) to size bytes. */
EFI_STATUS fat_data_resize(struct fat_node *node, UINT64 size);
/* Frees the clusters beyond the node's size (all of them when its entry lost its first
 * cluster, which was old_first): for after that entry went to disk. */
EFI_STATUS fat_data_trim(struct fat_node *node, UINT32 old_first);
/* Undoes a change of the file whose entry on disk is still `before`: the chain goes back
 * to what that entry holds (clusters taken since are freed), the node to that entry. */
EFI_STATUS fat_data_restore(struct fat_node *node, const struct fat_dirent *before);
/* EFI_VOLUME_CORRUPTED when the node's chain, from cluster on, holds a cluster of a
 * directory above it (freeing or writing it would damage that directory). */
EFI_STATUS fat_data_check_chain(struct fat_node *node, UINT32 cluster);
/* Bytes the chain starting at cluster occupies (a directory's size); bounded. */
EFI_STATUS fat_chain_bytes(struct fat_volume *vol, UINT32 cluster, UINT64 *bytes);
/* Writes zeros over whole clusters (new directory clusters). */
EFI_STATUS fat_zero_clusters(struct fat_volume *vol, UINT32 first, UINT32 count);

#define FAT_FILE_SIZE_MAX 0xffffffffULL

#endif
