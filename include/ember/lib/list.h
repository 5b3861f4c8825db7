/* Intrusive circular doubly linked list. */
#ifndef EMBER_LIST_H
#define EMBER_LIST_H

#include <ember/lib/util.h>

struct list {
	struct list *next, *prev;
};

/* clang-format off */
#define LIST_INIT(name) {&(name), &(name)}
/* clang-format on */

static inline void list_init(struct list *head)
{
	head->next = head->prev = head;
}

static inline bool list_empty(const struct list *head)
{
	return head->next == head;
}

static inline void list_insert_between(struct list *item, struct list *prev, struct list *next)
{
	item->prev = prev;
	item->next = next;
	prev->next = item;
	next->prev = item;
}

/* Append at the tail. */
static inline void list_add_tail(struct list *item, struct list *head)
{
	list_insert_between(item, head->prev, head);
}

/* Insert at the head. */
static inline void list_add(struct list *item, struct list *head)
{
	list_insert_between(item, head, head->next);
}

static inline void list_del(struct list *item)
{
	item->prev->next = item->next;
	item->next->prev = item->prev;
	item->next = item->prev = item;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)

#define list_for_each(pos, head) for (pos = (head)->next; pos != (head); pos = pos->next)

#define list_for_each_entry(pos, head, member)                                                     \
	for (pos = list_entry((head)->next, __typeof__(*pos), member); &pos->member != (head);     \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, tmp, head, member)                                           \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),                             \
	    tmp = list_entry(pos->member.next, __typeof__(*pos), member);                          \
	     &pos->member != (head);                                                               \
	     pos = tmp, tmp = list_entry(tmp->member.next, __typeof__(*tmp), member))

#endif
