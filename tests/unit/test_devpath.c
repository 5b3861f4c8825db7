/* Device path utilities (UEFI 2.10, 10.5), validation of untrusted paths, byte layouts of
 * important nodes parsed from text, and the three installed protocols. */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <efi/protocol/device_path_utilities.h>
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/device_path_from_text.h>

bool dpt_str16_eq(const CHAR16 *a, const CHAR16 *b);

static const UINT8 end_node[] = {0x7f, 0xff, 0x04, 0x00};

/* Parses text that must be valid; the test stops otherwise. */
static EFI_DEVICE_PATH_PROTOCOL *parse(const CHAR16 *text)
{
	EFI_DEVICE_PATH_PROTOCOL *p = dp_from_text(text);

	ASSERT(p != NULL);
	return p;
}

static bool bytes_are(const void *p, const UINT8 *want, size_t n)
{
	return memcmp(p, want, n) == 0;
}

TEST(devpath_layout_pci)
{
	static const UINT8 want[] = {0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a,
				     0,	   0,	 0,    0,    0x01, 0x01, 0x06, 0x00,
				     0x02, 0x1f, 0x7f, 0xff, 0x04, 0x00};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"PciRoot(0x0)/Pci(0x1F,0x2)");

	EXPECT_EQ(dp_size(p), sizeof(want));
	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_hd_gpt)
{
	static const UINT8 want[] = {
	    0x04, 0x01, 0x2a, 0x00, 0x01, 0x00, 0x00, 0x00, /* header, partition 1 */
	    0x00, 0x08, 0,    0,    0,	  0,	0,    0,    0x00, 0x00, 0x10, 0,    0,	  0,
	    0,	  0,					    /* start, size */
	    0x00, 0x9a, 0xe3, 0x15, 0xd2, 0x1d, 0x00, 0x10, /* GUID, as in memory */
	    0x8d, 0x7f, 0x00, 0xa0, 0xc9, 0x24, 0x08, 0xfc, 0x02, 0x02, 0x7f, 0xff, 0x04, 0x00,
	};
	EFI_DEVICE_PATH_PROTOCOL *p =
	    parse(u"HD(1,GPT,15E39A00-1DD2-1000-8D7F-00A0C92408FC,0x800,0x100000)");

	EXPECT_EQ(dp_size(p), sizeof(want));
	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_hd_mbr)
{
	static const UINT8 want[] = {
	    0x04, 0x01, 0x2a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x3f, 0, 0,	   0,	 0,    0,
	    0,	  0,	0xc1, 0xbf, 0x0f, 0,	0,    0,    0,	  0, 0xfa, 0xfd, 0x1a, 0xbe,
	    0,	  0,	0,    0,    0,	  0,	0,    0,    0,	  0, 0,	   0,	 0x01, 0x01,
	};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"HD(1,MBR,0xBE1AFDFA,0x3F,0xFBFC1)");

	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_hd_no_signature)
{
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"HD(0,3,0)");
	const UINT8 *b = (const UINT8 *)p;

	/* A numeric Type is the signature type (as OVMF reads it), with no partition format. */
	EXPECT_EQ(b[40], 0);
	EXPECT_EQ(b[41], 3);
	pool_free(p);
}

TEST(devpath_layout_file_path)
{
	static const UINT8 want[] = {0x04, 0x04, 0x10, 0x00, '\\', 0, 'E',  0,	  'F',	0,
				     'I',  0,	 '\\', 0,    0,	   0, 0x7f, 0xff, 0x04, 0x00};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"\\EFI\\"), *q = dp_file_path(u"\\EFI\\");

	EXPECT(bytes_are(p, want, sizeof(want)));
	ASSERT(q);
	EXPECT_EQ(dp_size(q), sizeof(want));
	EXPECT(bytes_are(q, want, sizeof(want)));
	pool_free(p);
	pool_free(q);
}

TEST(devpath_layout_vendor_hw)
{
	static const UINT8 want[] = {0x01, 0x04, 0x17, 0x00, 0x7e, 0x4c, 0xe3, 0x93, 0x0e,
				     0xb5, 0xdf, 0x11, 0x92, 0x23, 0x24, 0x43, 0xdf, 0xd7,
				     0x20, 0x85, 0x01, 0x02, 0xa0, 0x7f, 0xff, 0x04, 0x00};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"VenHw(93E34C7E-B50E-11DF-9223-2443DFD72085,0102A0)");

	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_mac)
{
	UINT8 want[37 + 4] = {0x03, 0x0b, 0x25, 0x00, 0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"MAC(525400123456,0x1)");

	want[36] = 0x01;
	memcpy(want + 37, end_node, 4);
	EXPECT_EQ(dp_size(p), sizeof(want));
	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_ipv4)
{
	static const UINT8 want[] = {
	    0x03, 0x0c, 0x1b, 0x00, 192,  168,	0,    1, 192,  168,  0,	   100, /* local, remote */
	    0x00, 0x00, 0xbc, 0x0c, 0x06, 0x00, 0x01, /* ports, TCP, static */
	    192,  168,	0,    254,  255,  255,	255,  0, 0x7f, 0xff, 0x04, 0x00,
	};
	EFI_DEVICE_PATH_PROTOCOL *p =
	    parse(u"IPv4(192.168.0.100:3260,TCP,Static,192.168.0.1,192.168.0.254,255.255.255.0)");

	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_uri)
{
	static const UINT8 want[] = {0x03, 0x18, 0x0e, 0x00, 'h', 't',	't',  'p',  ':',
				     '/',  '/',	 'a',  '/',  'b', 0x7f, 0xff, 0x04, 0x00};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"Uri(http://a/b)");

	EXPECT(bytes_are(p, want, sizeof(want)));
	pool_free(p);
}

TEST(devpath_layout_multi_instance)
{
	static const UINT8 want[] = {0x01, 0x01, 0x06, 0x00, 0x00, 0x01, 0x7f, 0x01, 0x04, 0x00,
				     0x01, 0x01, 0x06, 0x00, 0x00, 0x02, 0x7f, 0xff, 0x04, 0x00};
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"Pci(1,0),Pci(2,0)");

	EXPECT(bytes_are(p, want, sizeof(want)));
	EXPECT(dp_is_multi_instance(p));
	pool_free(p);
}

TEST(devpath_size_and_walk)
{
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"PciRoot(0x0)/Pci(0x1,0x0)/\\a");
	EFI_DEVICE_PATH_PROTOCOL *n = p;

	EXPECT_EQ(dp_size(NULL), 0);
	EXPECT_EQ(dp_size(p), 12 + 6 + 10 + 4);
	EXPECT_EQ(dp_node_length(n), 12);
	n = dp_next(n);
	EXPECT_EQ(dp_node_length(n), 6);
	n = dp_next(dp_next(n));
	EXPECT(dp_is_end(n));
	EXPECT(dp_is_end_instance(n));
	EXPECT(!dp_is_end(p));
	EXPECT(!dp_is_multi_instance(p));
	EXPECT(!dp_is_multi_instance(NULL));
	pool_free(p);
}

TEST(devpath_dup)
{
	EFI_DEVICE_PATH_PROTOCOL *p = parse(u"PciRoot(0x0)/Pci(0x1,0x0)"), *d = dp_dup(p);

	ASSERT(d);
	EXPECT(d != p);
	EXPECT_EQ(dp_size(d), dp_size(p));
	EXPECT(memcmp(d, p, dp_size(p)) == 0);
	EXPECT(dp_dup(NULL) == NULL);
	pool_free(d);
	pool_free(p);
}

TEST(devpath_append_paths)
{
	EFI_DEVICE_PATH_PROTOCOL *a = parse(u"PciRoot(0x0)/Pci(0x1,0x0)"), *b = parse(u"\\x.efi");
	EFI_DEVICE_PATH_PROTOCOL *both = parse(u"PciRoot(0x0)/Pci(0x1,0x0)/\\x.efi"), *r;

	r = dp_append(NULL, NULL);
	ASSERT(r);
	EXPECT(bytes_are(r, end_node, 4));
	pool_free(r);
	r = dp_append(a, NULL);
	EXPECT(r && r != a && dp_size(r) == dp_size(a) && memcmp(r, a, dp_size(a)) == 0);
	pool_free(r);
	r = dp_append(NULL, b);
	EXPECT(r && dp_size(r) == dp_size(b) && memcmp(r, b, dp_size(b)) == 0);
	pool_free(r);
	r = dp_append(a, b);
	EXPECT(r && dp_size(r) == dp_size(a) + dp_size(b) - 4);
	EXPECT(r && memcmp(r, both, dp_size(both)) == 0);
	pool_free(r);
	pool_free(a);
	pool_free(b);
	pool_free(both);
}

TEST(devpath_append_multi_instance_keeps_instances)
{
	EFI_DEVICE_PATH_PROTOCOL *a = parse(u"Pci(1,0),Pci(2,0)"), *b = parse(u"Pci(3,0)");
	EFI_DEVICE_PATH_PROTOCOL *want = parse(u"Pci(1,0),Pci(2,0)/Pci(3,0)");
	EFI_DEVICE_PATH_PROTOCOL *r = dp_append(a, b);

	EXPECT(r && dp_size(r) == dp_size(want) && memcmp(r, want, dp_size(want)) == 0);
	pool_free(r);
	pool_free(a);
	pool_free(b);
	pool_free(want);
}

TEST(devpath_append_node)
{
	EFI_DEVICE_PATH_PROTOCOL *path = parse(u"PciRoot(0x0)"),
				 *node = dp_node_from_text(u"Pci(1,2)");
	EFI_DEVICE_PATH_PROTOCOL *want = parse(u"PciRoot(0x0)/Pci(1,2)"),
				 *alone = parse(u"Pci(1,2)");
	EFI_DEVICE_PATH_PROTOCOL *r;
	EFI_DEVICE_PATH_PROTOCOL bad = {1, 1, {2, 0}};

	ASSERT(node);
	r = dp_append_node(NULL, NULL);
	EXPECT(r && bytes_are(r, end_node, 4));
	pool_free(r);
	r = dp_append_node(path, NULL);
	EXPECT(r && dp_size(r) == dp_size(path) && memcmp(r, path, dp_size(path)) == 0);
	pool_free(r);
	r = dp_append_node(NULL, node);
	EXPECT(r && dp_size(r) == dp_size(alone) && memcmp(r, alone, dp_size(alone)) == 0);
	pool_free(r);
	r = dp_append_node(path, node);
	EXPECT(r && dp_size(r) == dp_size(want) && memcmp(r, want, dp_size(want)) == 0);
	pool_free(r);
	EXPECT(dp_append_node(path, &bad) == NULL);
	pool_free(path);
	pool_free(node);
	pool_free(want);
	pool_free(alone);
}

TEST(devpath_instances)
{
	EFI_DEVICE_PATH_PROTOCOL *one = parse(u"PciRoot(0x0)/Pci(0x1,0x0)"),
				 *two = parse(u"Pci(2,0)");
	EFI_DEVICE_PATH_PROTOCOL *multi, *cursor, *inst;
	UINTN size = 99;

	EXPECT(dp_append_instance(one, NULL) == NULL);
	inst = dp_append_instance(NULL, two);
	EXPECT(inst && dp_size(inst) == dp_size(two) && memcmp(inst, two, dp_size(two)) == 0);
	pool_free(inst);

	multi = dp_append_instance(one, two);
	ASSERT(multi);
	EXPECT_EQ(dp_size(multi), dp_size(one) + dp_size(two));
	EXPECT(dp_is_multi_instance(multi));
	EXPECT(!dp_is_multi_instance(one));

	cursor = multi;
	inst = dp_next_instance(&cursor, &size);
	EXPECT(inst && size == dp_size(one) && memcmp(inst, one, size) == 0);
	EXPECT(cursor == (EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)multi + dp_size(one)));
	pool_free(inst);
	inst = dp_next_instance(&cursor, &size);
	EXPECT(inst && size == dp_size(two) && memcmp(inst, two, size) == 0);
	EXPECT(cursor == NULL);
	pool_free(inst);
	size = 99;
	EXPECT(dp_next_instance(&cursor, &size) == NULL);
	EXPECT_EQ(size, 0);
	EXPECT(dp_next_instance(NULL, NULL) == NULL);

	pool_free(multi);
	pool_free(one);
	pool_free(two);
}

TEST(devpath_create_node)
{
	EFI_DEVICE_PATH_PROTOCOL *n;

	EXPECT(dp_create_node(1, 1, 3) == NULL);
	EXPECT(dp_create_node(1, 1, 0) == NULL);
	n = dp_create_node(HARDWARE_DEVICE_PATH, HW_PCI_DP, 6);
	ASSERT(n);
	EXPECT_EQ(n->Type, HARDWARE_DEVICE_PATH);
	EXPECT_EQ(n->SubType, HW_PCI_DP);
	EXPECT_EQ(dp_node_length(n), 6);
	EXPECT(((UINT8 *)n)[4] == 0 && ((UINT8 *)n)[5] == 0);
	pool_free(n);
	n = dp_create_node(0x7f, 0xff, 4);
	EXPECT(n && dp_is_end(n));
	pool_free(n);
}

TEST(devpath_starts_with)
{
	EFI_DEVICE_PATH_PROTOCOL *full = parse(u"PciRoot(0x0)/Pci(0x1,0x0)/\\a.efi");
	EFI_DEVICE_PATH_PROTOCOL *prefix = parse(u"PciRoot(0x0)/Pci(0x1,0x0)");
	EFI_DEVICE_PATH_PROTOCOL *other = parse(u"PciRoot(0x0)/Pci(0x2,0x0)");
	EFI_DEVICE_PATH_PROTOCOL *empty = parse(u"");

	EXPECT(dp_starts_with(full, prefix));
	EXPECT(dp_starts_with(full, full));
	EXPECT(dp_starts_with(full, empty));
	EXPECT(dp_starts_with(full, NULL));
	EXPECT(!dp_starts_with(full, other));
	EXPECT(!dp_starts_with(prefix, full));
	EXPECT(!dp_starts_with(NULL, prefix));
	pool_free(full);
	pool_free(prefix);
	pool_free(other);
	pool_free(empty);
}

TEST(devpath_file_path_limits)
{
	static CHAR16 name[40000];
	EFI_DEVICE_PATH_PROTOCOL *p;

	for (size_t i = 0; i < 32765; i++)
		name[i] = 'a';
	name[32765] = 0;
	p = dp_file_path(name); /* 4 + 2 * 32766 = 65536: one byte too many */
	EXPECT(p == NULL);
	name[32764] = 0;
	p = dp_file_path(name);
	EXPECT(p && dp_node_length(p) == 65534);
	pool_free(p);
	EXPECT(dp_file_path(NULL) == NULL);
}

TEST(devpath_is_valid)
{
	static const UINT8 good[] = {0x01, 0x01, 0x06, 0x00, 0x00, 0x01, 0x7f, 0xff, 0x04, 0x00};
	static const UINT8 short_node[] = {0x01, 0x01, 0x02, 0x00, 0x7f, 0xff, 0x04, 0x00};
	static const UINT8 zero_len[] = {0x01, 0x01, 0x00, 0x00, 0x7f, 0xff, 0x04, 0x00};
	static const UINT8 past_end[] = {0x01, 0x01, 0x40, 0x00, 0x00,
					 0x01, 0x7f, 0xff, 0x04, 0x00};
	static const UINT8 no_end[] = {0x01, 0x01, 0x06, 0x00, 0x00, 0x01};
	static const UINT8 long_end[] = {0x7f, 0xff, 0x08, 0x00, 0, 0, 0, 0};
	static const UINT8 long_inst[] = {0x7f, 0x01, 0x06, 0x00, 0, 0, 0x7f, 0xff, 0x04, 0x00};
	static const UINT8 other_end[] = {0x7f, 0x02, 0x06, 0x00, 0, 0, 0x7f, 0xff, 0x04, 0x00};

#define VALID(a, n) dp_is_valid((const EFI_DEVICE_PATH_PROTOCOL *)(a), (n))
	EXPECT(VALID(good, sizeof(good)));
	EXPECT(VALID(good, 0));
	EXPECT(VALID(end_node, 4));
	EXPECT(!VALID(good, sizeof(good) - 1));
	EXPECT(!VALID(good, 3));
	EXPECT(!VALID(short_node, sizeof(short_node)));
	EXPECT(!VALID(zero_len, sizeof(zero_len)));
	EXPECT(!VALID(past_end, sizeof(past_end)));
	EXPECT(!VALID(no_end, sizeof(no_end)));
	EXPECT(!VALID(long_end, sizeof(long_end)));
	EXPECT(!VALID(long_inst, sizeof(long_inst)));
	EXPECT(VALID(other_end, sizeof(other_end)));
	EXPECT(!VALID(NULL, 100));
#undef VALID
}

TEST(devpath_malformed_binary_is_safe)
{
	static const UINT8 zero_len[] = {0x01, 0x01, 0x00, 0x00, 0x7f, 0xff, 0x04, 0x00};
	const EFI_DEVICE_PATH_PROTOCOL *p = (const EFI_DEVICE_PATH_PROTOCOL *)zero_len;

	/* A zero-length node must not spin the walkers. */
	EXPECT_EQ(dp_size(p), 0);
	EXPECT(dp_dup(p) == NULL);
	EXPECT(dp_to_text(p, false, false) == NULL);
	EXPECT(!dp_is_multi_instance(p));
}

TEST(devpath_to_text_empty)
{
	CHAR16 *t = dp_to_text((const EFI_DEVICE_PATH_PROTOCOL *)end_node, false, false);
	EFI_DEVICE_PATH_PROTOCOL *p = dp_from_text(u"");

	EXPECT(t && t[0] == 0);
	EXPECT(p && bytes_are(p, end_node, 4));
	pool_free(t);
	pool_free(p);
}

TEST(devpath_protocols)
{
	static const EFI_GUID util_guid = EFI_DEVICE_PATH_UTILITIES_PROTOCOL_GUID;
	static const EFI_GUID to_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
	static const EFI_GUID from_guid = EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL_GUID;
	EFI_DEVICE_PATH_UTILITIES_PROTOCOL *util;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to;
	EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL *from;
	EFI_DEVICE_PATH_PROTOCOL *p, *q;
	CHAR16 *text;

	/* core_init normally installs them; install here if this core does not yet. */
	if (protocol_locate(&to_guid, (void **)&to) != EFI_SUCCESS)
		ASSERT_STATUS(devpath_install_protocols(), EFI_SUCCESS);
	ASSERT_STATUS(protocol_locate(&util_guid, (void **)&util), EFI_SUCCESS);
	ASSERT_STATUS(protocol_locate(&to_guid, (void **)&to), EFI_SUCCESS);
	ASSERT_STATUS(protocol_locate(&from_guid, (void **)&from), EFI_SUCCESS);

	p = from->ConvertTextToDevicePath(u"PciRoot(0x0)/Pci(0x2,0x0)");
	ASSERT(p);
	EXPECT_EQ(util->GetDevicePathSize(p), 22);
	q = util->AppendDeviceNode(p, (EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)p + 12));
	ASSERT(q);
	text = to->ConvertDevicePathToText(q, FALSE, TRUE);
	EXPECT(dpt_str16_eq(text, u"PciRoot(0x0)/Pci(0x2,0x0)/Pci(0x2,0x0)"));
	pool_free(text);
	text = to->ConvertDeviceNodeToText(p, TRUE, TRUE);
	EXPECT(dpt_str16_eq(text, u"PciRoot(0x0)"));
	pool_free(text);
	EXPECT(!util->IsDevicePathMultiInstance(q));
	EXPECT(util->CreateDeviceNode(1, 1, 2) == NULL);
	pool_free(q);
	pool_free(p);
	p = from->ConvertTextToDeviceNode(u"Sata(0,0xFFFF,0)");
	EXPECT(p && dp_node_length(p) == 10);
	pool_free(p);
}

/* EFI_DEVICE_PATH_UTILITIES_PROTOCOL's NULL and malformed cases (UEFI 2.10, 10.5.1). */
TEST(devpath_utilities_protocol_edge_cases)
{
	static const EFI_GUID util_guid = EFI_DEVICE_PATH_UTILITIES_PROTOCOL_GUID;
	static const UINT8 zero_length[] = {0x01, 0x01, 0x00, 0x00, 0x7f, 0xff, 0x04, 0x00};
	static const UINT8 short_node[] = {0x01, 0x01, 0x03, 0x00};
	EFI_DEVICE_PATH_UTILITIES_PROTOCOL *util;
	EFI_DEVICE_PATH_PROTOCOL *a = parse(u"PciRoot(0x0)/Pci(0x1,0x0)");
	EFI_DEVICE_PATH_PROTOCOL *b = parse(u"Pci(0x2,0x0)"), *p, *cursor;
	UINTN size = 99;

	if (protocol_locate(&util_guid, (void **)&util) != EFI_SUCCESS)
		ASSERT_STATUS(devpath_install_protocols(), EFI_SUCCESS);
	ASSERT_STATUS(protocol_locate(&util_guid, (void **)&util), EFI_SUCCESS);
	ASSERT(a && b);
	/* Duplicate: NULL gives NULL; a copy is a copy. */
	EXPECT(util->DuplicateDevicePath(NULL) == NULL);
	p = util->DuplicateDevicePath(a);
	EXPECT(p && p != a && util->GetDevicePathSize(p) == 22 && bytes_are(p, (UINT8 *)a, 22));
	pool_free(p);
	/* Append: both NULL is an End node alone; one NULL copies the other. */
	p = util->AppendDevicePath(NULL, NULL);
	EXPECT(p && bytes_are(p, end_node, 4));
	pool_free(p);
	p = util->AppendDevicePath(NULL, b);
	EXPECT(p && util->GetDevicePathSize(p) == 10);
	pool_free(p);
	p = util->AppendDevicePath(a, NULL);
	EXPECT(p && util->GetDevicePathSize(p) == 22);
	pool_free(p);
	p = util->AppendDevicePath(a, b);
	EXPECT(p && util->GetDevicePathSize(p) == 28);
	pool_free(p);
	/* AppendDeviceNode: both NULL is an End node; a node shorter than a header is refused. */
	p = util->AppendDeviceNode(NULL, NULL);
	EXPECT(p && bytes_are(p, end_node, 4));
	pool_free(p);
	p = util->AppendDeviceNode(a, NULL);
	EXPECT(p && util->GetDevicePathSize(p) == 22);
	pool_free(p);
	p = util->AppendDeviceNode(NULL, b);
	EXPECT(p && util->GetDevicePathSize(p) == 10);
	pool_free(p);
	EXPECT(util->AppendDeviceNode(a, (EFI_DEVICE_PATH_PROTOCOL *)short_node) == NULL);
	/* AppendDevicePathInstance: no instance, no result; no path, the instance alone. */
	EXPECT(util->AppendDevicePathInstance(a, NULL) == NULL);
	p = util->AppendDevicePathInstance(NULL, b);
	EXPECT(p && !util->IsDevicePathMultiInstance(p));
	pool_free(p);
	p = util->AppendDevicePathInstance(a, b);
	EXPECT(p && util->IsDevicePathMultiInstance(p) && util->GetDevicePathSize(p) == 32);
	/* GetNextDevicePathInstance walks the instances and then ends. */
	cursor = p;
	EFI_DEVICE_PATH_PROTOCOL *first = util->GetNextDevicePathInstance(&cursor, &size);
	EXPECT(first && size == 22 && cursor != NULL);
	pool_free(first);
	EFI_DEVICE_PATH_PROTOCOL *second = util->GetNextDevicePathInstance(&cursor, &size);
	EXPECT(second && size == 10 && cursor == NULL);
	pool_free(second);
	EXPECT(util->GetNextDevicePathInstance(&cursor, &size) == NULL && size == 0);
	EXPECT(util->GetNextDevicePathInstance(NULL, &size) == NULL);
	pool_free(p);
	/* A node of length zero ends the walk instead of looping on it. */
	cursor = (EFI_DEVICE_PATH_PROTOCOL *)zero_length;
	EXPECT(util->GetNextDevicePathInstance(&cursor, &size) == NULL && cursor == NULL);
	/* CreateDeviceNode: at least a header; the node comes zeroed with its header set. */
	EXPECT(util->CreateDeviceNode(1, 1, 3) == NULL);
	p = util->CreateDeviceNode(HARDWARE_DEVICE_PATH, HW_PCI_DP, 6);
	EXPECT(p && p->Type == HARDWARE_DEVICE_PATH && p->SubType == HW_PCI_DP &&
	       dp_node_length(p) == 6 && ((UINT8 *)p)[4] == 0 && ((UINT8 *)p)[5] == 0);
	pool_free(p);
	/* dp_file_path: NULL, and a name too long for one node. */
	EXPECT(dp_file_path(NULL) == NULL);
	CHAR16 *long_name = pool_alloc(40000 * sizeof(CHAR16));
	ASSERT(long_name);
	for (int i = 0; i < 39999; i++)
		long_name[i] = 'x';
	EXPECT(dp_file_path(long_name) == NULL);
	pool_free(long_name);
	pool_free(a);
	pool_free(b);
}
