/* EFI_LOAD_OPTION parsing (lib/load_option.c): what load_option_problem says about each
 * rule an option can break, and that load_option_parse agrees with it. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/load_option.h>

/* A Boot#### value: attributes, FilePathListLength, "ab", the path list, optional data. */
struct option_bytes {
	UINT8 data[64];
	UINTN size;
};

static const UINT8 end_node[] = {0x7f, 0xff, 4, 0};

static struct option_bytes option(UINT32 attributes, UINT16 path_length, const UINT8 *paths,
				  UINTN paths_size, UINTN optional)
{
	struct option_bytes o = {{0}, 0};
	static const UINT8 description[] = {'a', 0, 'b', 0, 0, 0};

	memcpy(o.data, &attributes, 4);
	memcpy(o.data + 4, &path_length, 2);
	memcpy(o.data + 6, description, sizeof(description));
	o.size = 6 + sizeof(description);
	memcpy(o.data + o.size, paths, paths_size);
	o.size += paths_size + optional; /* optional data: zeros */
	return o;
}

static const char *problem(struct option_bytes o)
{
	struct load_option lo;
	const char *why = load_option_problem(o.data, o.size, &lo);

	EXPECT_EQ(load_option_parse(o.data, o.size, &lo), why == NULL);
	return why ? why : "";
}

TEST(load_option_valid)
{
	struct option_bytes o = option(LOAD_OPTION_ACTIVE, 4, end_node, 4, 3);
	struct load_option lo;

	ASSERT(load_option_problem(o.data, o.size, &lo) == NULL);
	EXPECT_EQ(lo.attributes, LOAD_OPTION_ACTIVE);
	EXPECT_EQ(lo.description_size, 6);
	EXPECT_EQ(lo.file_path_size, 4);
	EXPECT_EQ(lo.optional_size, 3);
	EXPECT(load_option_parse(o.data, o.size, &lo));
}

TEST(load_option_problems_name_the_rule)
{
	struct option_bytes o;
	UINT8 bad_node[] = {0x04, 0x04, 3, 0}; /* a node shorter than its header */

	EXPECT(!strcmp(problem(option(LOAD_OPTION_ACTIVE, 4, end_node, 4, 0)), ""));
	o = option(LOAD_OPTION_ACTIVE, 4, end_node, 4, 0);
	o.size = 7;
	EXPECT(!strcmp(problem(o), "shorter than its fixed part"));
	EXPECT(!strcmp(problem(option(0x40, 4, end_node, 4, 0)), "unknown attributes"));
	EXPECT(!strcmp(problem(option(0x300, 4, end_node, 4, 0)), "unknown category"));
	o = option(LOAD_OPTION_ACTIVE, 4, end_node, 4, 0);
	o.size = 10; /* the description's terminator cut off */
	EXPECT(!strcmp(problem(o), "the description is not terminated"));
	EXPECT(!strcmp(problem(option(LOAD_OPTION_ACTIVE, 8, end_node, 4, 0)),
		       "FilePathListLength does not fit the option"));
	EXPECT(!strcmp(problem(option(LOAD_OPTION_ACTIVE, 2, end_node, 4, 0)),
		       "FilePathListLength does not fit the option"));
	EXPECT(!strcmp(problem(option(LOAD_OPTION_ACTIVE, 4, bad_node, 4, 0)),
		       "FilePathList is not whole device paths"));
}
