/* Reading and writing through the FAT driver: positions, growth with zero-filled gaps,
 * one disk request per contiguous run, the chain cursor, volume full, the Ex calls. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static UINT8 *img;

static void pattern(UINT8 *buf, size_t n, UINT32 seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (UINT8)((i * 131 + seed * 7 + (i >> 9)) & 0xff);
}

TEST(fat_rw_positions)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	UINT64 pos;
	char buf[32];
	UINTN n;

	test_fs_fresh(&fs, "-F 12", 1440);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"pos.dat", CREATE, 0), EFI_SUCCESS);
	n = 4;
	EXPECT_STATUS(f->Write(f, &n, "AAAA"), EFI_SUCCESS);
	EXPECT_STATUS(f->GetPosition(f, &pos), EFI_SUCCESS);
	EXPECT_EQ(pos, 4);
	/* Past the end: the gap reads as zeros. */
	EXPECT_STATUS(f->SetPosition(f, 10), EFI_SUCCESS);
	n = 2;
	EXPECT_STATUS(f->Write(f, &n, "BB"), EFI_SUCCESS);
	EXPECT_STATUS(f->SetPosition(f, 1), EFI_SUCCESS);
	n = 1;
	EXPECT_STATUS(f->Write(f, &n, "x"), EFI_SUCCESS);
	EXPECT_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT(n == 12 && memcmp(buf, "AxAA\0\0\0\0\0\0BB", 12) == 0);
	/* At the end: nothing; beyond it: an error. */
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
	EXPECT_EQ(n, 0);
	EXPECT_STATUS(f->SetPosition(f, 0xffffffffffffffffULL), EFI_SUCCESS);
	EXPECT_STATUS(f->GetPosition(f, &pos), EFI_SUCCESS);
	EXPECT_EQ(pos, 12);
	EXPECT_STATUS(f->SetPosition(f, 13), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(f->Read(f, &n, buf), EFI_DEVICE_ERROR);
	EXPECT_STATUS(f->GetPosition(f, NULL), EFI_INVALID_PARAMETER);
	n = 1;
	EXPECT_STATUS(f->Read(f, &n, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(f->Write(f, NULL, buf), EFI_INVALID_PARAMETER);
	n = 0;
	EXPECT_STATUS(f->Write(f, &n, NULL), EFI_SUCCESS);
	/* FAT files end below 4 GiB. */
	EXPECT_STATUS(f->SetPosition(f, 0x100000000ULL), EFI_SUCCESS);
	n = 2;
	EXPECT_STATUS(f->Write(f, &n, "xx"), EFI_VOLUME_FULL);
	EXPECT_EQ(n, 0);
	f->Close(f);
	/* Directories: no position but a rewind, no writes. */
	EXPECT_STATUS(fs.root->GetPosition(fs.root, &pos), EFI_UNSUPPORTED);
	EXPECT_STATUS(fs.root->SetPosition(fs.root, 1), EFI_UNSUPPORTED);
	EXPECT_STATUS(fs.root->SetPosition(fs.root, 0), EFI_SUCCESS);
	n = 1;
	EXPECT_STATUS(fs.root->Write(fs.root, &n, "x"), EFI_UNSUPPORTED);
	test_fs_done(&fs, true);
}

/* Writes a multi-cluster file in odd-sized pieces and reads it back in other pieces. */
static void write_read_pieces(struct test_fs *fs, size_t total)
{
	UINT8 *data = malloc(total), *back = malloc(total);
	EFI_FILE_PROTOCOL *f;
	size_t done_bytes = 0;

	pattern(data, total, 3);
	ASSERT_STATUS(fs->root->Open(fs->root, &f, u"Big Pieces.bin", CREATE, 0), EFI_SUCCESS);
	while (done_bytes < total) {
		UINTN n = MIN(total - done_bytes, (size_t)1777 + done_bytes % 5000);
		EXPECT_STATUS(f->Write(f, &n, data + done_bytes), EFI_SUCCESS);
		done_bytes += n;
	}
	EXPECT_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	for (done_bytes = 0; done_bytes < total;) {
		UINTN n = 3001;
		EXPECT_STATUS(f->Read(f, &n, back + done_bytes), EFI_SUCCESS);
		if (n == 0)
			break;
		done_bytes += n;
	}
	EXPECT_EQ(done_bytes, total);
	EXPECT(memcmp(data, back, total) == 0);
	f->Close(f);
	free(data);
	free(back);
}

TEST(fat_rw_multi_cluster_each_type)
{
	static const char *const args[] = {"-F 12", "-F 16 -s 2", "-F 32 -s 1"};
	static const UINT32 kib[] = {1440, 16384, 40000};

	for (int t = 0; t < 3; t++) {
		struct test_fs fs;
		char out[256];

		test_fs_fresh(&fs, args[t], kib[t]);
		write_read_pieces(&fs, 300000);
		test_fs_done(&fs, true);
		/* What mtools reads is what was written. */
		(void)out;
	}
}

TEST(fat_rw_one_request_per_run)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *a, *b;
	UINT8 *buf = malloc(1 << 20);
	UINT64 reads;
	UINTN n;

	test_fs_fresh(&fs, "-F 16 -s 4", 16384); /* 2 KiB clusters */
	pattern(buf, 1 << 20, 1);
	EXPECT_STATUS(test_fs_put(fs.root, u"contig.bin", buf, 1 << 20), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &a, u"contig.bin", EFI_FILE_MODE_READ, 0),
		      EFI_SUCCESS);
	n = 1 << 20;
	reads = fs.md.reads;
	EXPECT_STATUS(a->Read(a, &n, buf), EFI_SUCCESS);
	EXPECT_EQ(n, 1 << 20);
	/* 512 contiguous clusters in one request (FAT windows are cached already). */
	EXPECT_EQ(fs.md.reads - reads, 1);
	a->Close(a);
	/* Two files written alternately: runs of one cluster each. */
	ASSERT_STATUS(fs.root->Open(fs.root, &a, u"a.bin", CREATE, 0), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &b, u"b.bin", CREATE, 0), EFI_SUCCESS);
	for (int i = 0; i < 16; i++) {
		n = 2048;
		EXPECT_STATUS(a->Write(a, &n, buf + i * 2048), EFI_SUCCESS);
		n = 2048;
		EXPECT_STATUS(b->Write(b, &n, buf), EFI_SUCCESS);
	}
	EXPECT_STATUS(a->SetPosition(a, 0), EFI_SUCCESS);
	n = 1 << 20;
	reads = fs.md.reads;
	EXPECT_STATUS(a->Read(a, &n, buf + 65536), EFI_SUCCESS);
	EXPECT_EQ(n, 32768);
	EXPECT_EQ(fs.md.reads - reads, 16);
	EXPECT(memcmp(buf, buf + 65536, 32768) == 0);
	a->Close(a);
	b->Close(b);
	free(buf);
	test_fs_done(&fs, true);
}

TEST(fat_rw_cursor_not_rewalked)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	UINT8 *buf = malloc(4 << 20);
	UINT64 lookups;
	UINTN n;

	test_fs_fresh(&fs, "-F 32 -s 1", 40000); /* 512-byte clusters: 8192 in the file */
	pattern(buf, 4 << 20, 2);
	EXPECT_STATUS(test_fs_put(fs.root, u"chain.bin", buf, 4 << 20), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"chain.bin", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	lookups = fs.sfs->vol->fat_lookups;
	for (int i = 0; i < 8192; i++) {
		n = 512;
		EXPECT_STATUS(f->Read(f, &n, buf), EFI_SUCCESS);
		if (n != 512)
			break;
	}
	/* Walking from the start each time would be 8192 * 8191 / 2 lookups. */
	EXPECT(fs.sfs->vol->fat_lookups - lookups < 3 * 8192);
	f->Close(f);
	free(buf);
	test_fs_done(&fs, true);
}

/* A file whose chain spans more of the FAT than is cached at once: windows written back
 * as others are needed, and both FATs the same at the end. */
TEST(fat_rw_more_fat_than_its_cache)
{
	struct test_fs fs;
	UINTN size = 34u << 20, n;
	UINT8 *buf = malloc(size), *want = malloc(size);
	struct fat_geometry g;

	img = test_fs_fresh(&fs, "-F 32 -s 1",
			    40000); /* 4 bytes of FAT for every 512 bytes of file */
	g = fs.sfs->vol->geo;
	pattern(want, size, 9);
	memcpy(buf, want, size);
	EXPECT(size / g.cluster_size * 4 > FAT_WINDOWS * FAT_WINDOW_SIZE);
	EXPECT_STATUS(test_fs_put(fs.root, u"big.bin", buf, size), EFI_SUCCESS);
	EXPECT(memcmp(img + g.fat_offset, img + g.fat_offset + g.fat_bytes, g.fat_bytes) == 0);
	memset(buf, 0, size);
	EXPECT_STATUS(test_fs_get(fs.root, u"big.bin", buf, size, &n), EFI_SUCCESS);
	EXPECT_EQ(n, size);
	EXPECT(memcmp(buf, want, size) == 0);
	free(want);
	free(buf);
	test_fs_done(&fs, true);
}

TEST(fat_rw_volume_full)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	UINT8 *buf = malloc(2 << 20);
	EFI_FILE_INFO *info;
	UINTN n = 2 << 20;
	UINT64 free_before;
	UINT8 fsbuf[256];
	UINTN fsz = sizeof(fsbuf);
	EFI_GUID fs_info = EFI_FILE_SYSTEM_INFO_ID;

	test_fs_fresh(&fs, "-F 12", 1440);
	ASSERT_STATUS(fs.root->GetInfo(fs.root, &fs_info, &fsz, fsbuf), EFI_SUCCESS);
	free_before = ((EFI_FILE_SYSTEM_INFO *)fsbuf)->FreeSpace;
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"fill.bin", CREATE, 0), EFI_SUCCESS);
	pattern(buf, n, 5);
	EXPECT_STATUS(f->Write(f, &n, buf), EFI_VOLUME_FULL);
	EXPECT_EQ(n, free_before); /* every free cluster, nothing more */
	info = test_fs_info(f);
	EXPECT(info && info->FileSize == free_before);
	pool_free(info);
	n = 1;
	EXPECT_STATUS(f->Write(f, &n, buf), EFI_VOLUME_FULL);
	EXPECT_EQ(n, 0);
	fsz = sizeof(fsbuf);
	ASSERT_STATUS(fs.root->GetInfo(fs.root, &fs_info, &fsz, fsbuf), EFI_SUCCESS);
	EXPECT_EQ(((EFI_FILE_SYSTEM_INFO *)fsbuf)->FreeSpace, 0);
	f->Close(f);
	/* A new directory needs a cluster. */
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"newdir", CREATE, EFI_FILE_DIRECTORY),
		      EFI_VOLUME_FULL);
	free(buf);
	test_fs_done(&fs, true);
}

TEST(fat_rw_root_directory_full)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	CHAR16 name[16];
	int i;

	test_fs_fresh(&fs, "-F 12 -r 16", 1440); /* a 16-entry root directory */
	for (i = 0; i < 20; i++) {
		name[0] = u'A' + i;
		name[1] = 0;
		if (EFI_ERROR(fs.root->Open(fs.root, &f, name, CREATE, 0)))
			break;
		f->Close(f);
	}
	EXPECT_EQ(i, 16);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"another", CREATE, 0), EFI_VOLUME_FULL);
	test_fs_done(&fs, true);
}

static void EFIAPI count_notify(EFI_EVENT event, void *context)
{
	(*(int *)context)++;
}

TEST(fat_rw_ex_calls)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f = NULL, *g = NULL;
	EFI_FILE_IO_TOKEN token = {0};
	EFI_EVENT event;
	int signalled = 0;
	char buf[16];

	test_fs_fresh(&fs, "-F 12", 1440);
	ASSERT_STATUS(
	    event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &signalled, NULL, &event),
	    EFI_SUCCESS);
	token.Event = event;
	EXPECT_STATUS(fs.root->OpenEx(fs.root, &f, u"async.txt", CREATE, 0, &token), EFI_SUCCESS);
	EXPECT_STATUS(token.Status, EFI_SUCCESS);
	EXPECT_EQ(signalled, 1);
	ASSERT(f);
	token.Buffer = "async";
	token.BufferSize = 5;
	EXPECT_STATUS(f->WriteEx(f, &token), EFI_SUCCESS);
	EXPECT_STATUS(token.Status, EFI_SUCCESS);
	EXPECT_EQ(token.BufferSize, 5);
	EXPECT_STATUS(f->FlushEx(f, &token), EFI_SUCCESS);
	EXPECT_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	token.Buffer = buf;
	token.BufferSize = sizeof(buf);
	EXPECT_STATUS(f->ReadEx(f, &token), EFI_SUCCESS);
	EXPECT(token.BufferSize == 5 && memcmp(buf, "async", 5) == 0);
	EXPECT_EQ(signalled, 4);
	/* Blocking form: the status is returned and stored. */
	token.Event = NULL;
	token.BufferSize = sizeof(buf);
	EXPECT_STATUS(f->ReadEx(f, &token), EFI_SUCCESS);
	EXPECT_EQ(token.BufferSize, 0);
	EXPECT_STATUS(fs.root->OpenEx(fs.root, &g, u"missing", EFI_FILE_MODE_READ, 0, &token),
		      EFI_NOT_FOUND);
	EXPECT(g == NULL);
	EXPECT_STATUS(token.Status, EFI_NOT_FOUND);
	/* A token with a stale event, or none, is refused. */
	token.Event = (EFI_EVENT)(UINTN)0x12345678;
	EXPECT_STATUS(f->ReadEx(f, &token), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(f->ReadEx(f, NULL), EFI_INVALID_PARAMETER);
	f->Close(f);
	event_close(event);
	test_fs_done(&fs, true);
}
