// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * POSIX extended regular expressions for list -Q (see ere.h): a parser to a
 * tree, the tree written out as a program of an automaton, and a matcher that
 * follows every state of it at once over the text, one character at a time.
 */
#include "ere.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "parse.h"
#include "util.h"

/* How deep groups and repetitions may nest: the parser and the writer recurse. */
#define MAX_DEPTH 200
/* regcomp()'s RE_DUP_MAX: the largest count of an interval. */
#define MAX_COUNT 0x7fff
/* A byte of no UTF-8 sequence, as a character of its own: this plus the byte. */
#define INVALID_BYTE 0x110000

enum assertion {
	AT_START, /* ^ and \` */
	AT_END,   /* $ and \' */
	AT_WORD_BOUNDARY,
	AT_NOT_WORD_BOUNDARY,
	AT_WORD_START,
	AT_WORD_END,
};

/* A bracket expression, or \w \W \s \S: ranges of characters and classes, maybe negated. */
struct set {
	bool negated;
	size_t n_ranges, n_classes;
	int32_t (*ranges)[2];
	wctype_t *classes;
	bool underscore; /* \w, \W: '_' is a word character too */
};

enum node_kind {
	NODE_EMPTY,
	NODE_CHAR,
	NODE_ANY,
	NODE_SET,
	NODE_ASSERT,
	NODE_CAT,
	NODE_ALT,
	NODE_REPEAT
};

struct node {
	enum node_kind kind;
	int32_t c;          /* NODE_CHAR */
	size_t set;         /* NODE_SET: index in the sets */
	enum assertion at;  /* NODE_ASSERT */
	int min, max;       /* NODE_REPEAT; max -1: no bound */
	struct node **kids; /* NODE_CAT, NODE_ALT: any number; NODE_REPEAT: one */
	size_t n_kids;
};

enum op { OP_CHAR, OP_ANY, OP_SET, OP_ASSERT, OP_SPLIT, OP_JUMP, OP_MATCH };

struct instruction {
	enum op op;
	int32_t c;     /* OP_CHAR; OP_SET: the set; OP_ASSERT: the assertion */
	uint32_t x, y; /* OP_JUMP: x; OP_SPLIT: x and y */
};

/* The states reached at one position of the text: each once (MARK == generation). */
struct state_list {
	uint32_t *mark;
	uint32_t *consumers; /* the states that read a character next */
	size_t n;
};

struct ere {
	bool utf8;
	struct instruction *program;
	size_t n_program;
	struct set *sets;
	size_t n_sets;
	/* All the matcher needs, allocated here: a match never allocates. */
	struct state_list lists[2];
	uint32_t *stack;
	uint32_t generation;
};

struct parser {
	const char *start, *s;
	bool utf8;
	struct ere *re;
	const char *error;
	size_t error_offset;
	bool no_memory;
	int depth;
};

static void fail(struct parser *p, const char *at, const char *message)
{
	if (!p->error && !p->no_memory) {
		p->error = message;
		p->error_offset = (size_t)(at - p->start);
	}
}

/* The character at S, and its length: a UTF-8 sequence, or a byte. */
static int32_t next_char(const char *s, bool utf8, size_t *ret_length)
{
	const unsigned char *u = (const unsigned char *)s;
	int32_t c;

	*ret_length = 1;
	if (!utf8 || u[0] < 0x80)
		return u[0];
	c = utf8_decode(u, ret_length);
	return c < 0 ? INVALID_BYTE + u[0] : c;
}

static struct node *new_node(struct parser *p, enum node_kind kind)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		p->no_memory = true;
	else
		n->kind = kind;
	return n;
}

static void free_node(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n_kids; i++)
		free_node(n->kids[i]);
	free(n->kids);
	free(n);
}

static bool add_kid(struct parser *p, struct node *n, struct node *kid)
{
	struct node **kids = reallocarray(n->kids, n->n_kids + 1, sizeof(*kids));

	if (!kids) {
		p->no_memory = true;
		return false;
	}
	n->kids = kids;
	n->kids[n->n_kids++] = kid;
	return true;
}

static struct set *new_set(struct parser *p, size_t *ret_index)
{
	struct ere *re = p->re;
	struct set *sets = reallocarray(re->sets, re->n_sets + 1, sizeof(*sets));

	if (!sets) {
		p->no_memory = true;
		return NULL;
	}
	re->sets = sets;
	memset(&sets[re->n_sets], 0, sizeof(*sets));
	*ret_index = re->n_sets;
	return &sets[re->n_sets++];
}

static bool set_add_range(struct parser *p, struct set *set, int32_t low, int32_t high)
{
	int32_t(*ranges)[2] = reallocarray(set->ranges, set->n_ranges + 1, sizeof(*ranges));

	if (!ranges) {
		p->no_memory = true;
		return false;
	}
	set->ranges = ranges;
	set->ranges[set->n_ranges][0] = low;
	set->ranges[set->n_ranges++][1] = high;
	return true;
}

static bool set_add_class(struct parser *p, struct set *set, wctype_t class)
{
	wctype_t *classes = reallocarray(set->classes, set->n_classes + 1, sizeof(*classes));

	if (!classes) {
		p->no_memory = true;
		return false;
	}
	set->classes = classes;
	set->classes[set->n_classes++] = class;
	return true;
}

/* \w \W \s \S, as GNU's matcher reads them: [_[:alnum:]], [[:space:]] and their opposites. */
static struct node *class_escape(struct parser *p, char letter)
{
	struct node *n = new_node(p, NODE_SET);
	struct set *set = n ? new_set(p, &n->set) : NULL;
	bool word = letter == 'w' || letter == 'W';

	if (!set)
		return n;
	set->negated = letter == 'W' || letter == 'S';
	set->underscore = word;
	set_add_class(p, set, wctype(word ? "alnum" : "space"));
	return n;
}

/* One element of a bracket expression at p->s: a character, or [.c.] / [=c=] of one. */
static bool bracket_char(struct parser *p, int32_t *ret)
{
	size_t length;

	if (p->s[0] == '[' && (p->s[1] == '.' || p->s[1] == '=')) {
		const char *at = p->s;
		char kind = p->s[1];

		p->s += 2;
		*ret = next_char(p->s, p->utf8, &length);
		if (!p->s[0] || p->s[length] != kind || p->s[length + 1] != ']') {
			fail(p, at,
			     "a collating element other than one character is not supported");
			return false;
		}
		p->s += length + 2;
		return true;
	}
	*ret = next_char(p->s, p->utf8, &length);
	p->s += length;
	return true;
}

/* [...] at p->s (past the '['). */
static struct node *parse_bracket(struct parser *p)
{
	const char *open = p->s - 1;
	struct node *n = new_node(p, NODE_SET);
	struct set *set = n ? new_set(p, &n->set) : NULL;
	bool first = true;

	if (!set)
		return n;
	if (*p->s == '^') {
		set->negated = true;
		p->s++;
	}
	while (!p->error && !p->no_memory) {
		int32_t low, high;
		const char *at = p->s;

		if (!*p->s) {
			fail(p, open, "unmatched [");
			break;
		}
		if (*p->s == ']' && !first) {
			p->s++;
			break;
		}
		first = false;
		if (p->s[0] == '[' && p->s[1] == ':') {
			const char *end = strstr(p->s + 2, ":]");
			char name[16];
			wctype_t class;

			if (!end || (size_t)(end - p->s - 2) >= sizeof(name)) {
				fail(p, at, end ? "invalid character class name" : "unmatched [");
				break;
			}
			memcpy(name, p->s + 2, (size_t)(end - p->s - 2));
			name[end - p->s - 2] = '\0';
			class = wctype(name);
			if (!class) {
				fail(p, at, "invalid character class name");
				break;
			}
			set_add_class(p, set, class);
			p->s = end + 2;
			/* A class is no end of a range. */
			if (p->s[0] == '-' && p->s[1] && p->s[1] != ']')
				fail(p, at, "invalid range end");
			continue;
		}
		if (!bracket_char(p, &low))
			break;
		high = low;
		/* A '-' before the closing ']' is itself. */
		if (p->s[0] == '-' && p->s[1] && p->s[1] != ']') {
			p->s++;
			if (p->s[0] == '[' && p->s[1] == ':') {
				fail(p, at, "invalid range end");
				break;
			}
			if (!bracket_char(p, &high))
				break;
			/* A byte of no UTF-8 sequence is a character, but no end of a range. */
			if (high < low || low >= INVALID_BYTE || high >= INVALID_BYTE) {
				fail(p, at, "invalid range end");
				break;
			}
		}
		set_add_range(p, set, low, high);
	}
	return n;
}

static struct node *parse_alternation(struct parser *p);

static struct node *assertion(struct parser *p, enum assertion at)
{
	struct node *n = new_node(p, NODE_ASSERT);

	if (n)
		n->at = at;
	return n;
}

/* The character at p->s, itself. */
static struct node *literal(struct parser *p)
{
	size_t length;
	int32_t c = next_char(p->s, p->utf8, &length);
	struct node *n;

	p->s += length;
	n = new_node(p, NODE_CHAR);
	if (n)
		n->c = c;
	return n;
}

/* GNU's assertions after a backslash: \b \B \< \> \` \'. */
static const struct {
	char letter;
	enum assertion at;
} escaped_assertions[] = {
	{ 'b', AT_WORD_BOUNDARY }, { 'B', AT_NOT_WORD_BOUNDARY },
	{ '<', AT_WORD_START },    { '>', AT_WORD_END },
	{ '`', AT_START },         { '\'', AT_END },
};

/* \c at p->s (past the backslash). */
static struct node *parse_escape(struct parser *p)
{
	const char *at = p->s - 1;

	switch (*p->s) {
	case '\0':
		fail(p, at, "trailing backslash");
		return NULL;
	case 'w':
	case 'W':
	case 's':
	case 'S':
		return class_escape(p, *p->s++);
	}
	for (size_t i = 0; i < ELEMENTSOF(escaped_assertions); i++)
		if (*p->s == escaped_assertions[i].letter) {
			p->s++;
			return assertion(p, escaped_assertions[i].at);
		}
	if (*p->s >= '1' && *p->s <= '9') {
		fail(p, at,
		     "back-references are not supported (POSIX extended expressions have none)");
		return NULL;
	}
	return literal(p);
}

/* An atom at p->s; NULL (no error) where there is none: a '|', a ')' closing a group, the end. */
static struct node *parse_atom(struct parser *p)
{
	struct node *n;

	switch (*p->s) {
	case '\0':
	case '|':
		return NULL;
	case ')':
		/* Closing a group; outside any, a ')' is itself (as regcomp() reads it). */
		if (p->depth > 0)
			return NULL;
		break;
	case '(':
		if (++p->depth > MAX_DEPTH) {
			fail(p, p->s, "groups and repetitions nest too deep");
			return NULL;
		}
		{
			const char *open = p->s++;

			n = parse_alternation(p);
			if (!p->error && !p->no_memory && *p->s != ')')
				fail(p, open, "unmatched (");
			if (*p->s == ')')
				p->s++;
		}
		p->depth--;
		if (!n && !p->error && !p->no_memory)
			n = new_node(p, NODE_EMPTY);
		return n;
	case '.':
		p->s++;
		return new_node(p, NODE_ANY);
	case '[':
		p->s++;
		return parse_bracket(p);
	case '^':
		p->s++;
		return assertion(p, AT_START);
	case '$':
		p->s++;
		return assertion(p, AT_END);
	case '\\':
		p->s++;
		return parse_escape(p);
	case '*':
	case '+':
	case '?':
	case '{':
		fail(p, p->s, "a repetition with nothing before it");
		return NULL;
	}
	return literal(p);
}

/* The count at p->s, at most MAX_COUNT; -1 where there is no digit. */
static int parse_count(struct parser *p)
{
	int value = -1;

	while (*p->s >= '0' && *p->s <= '9') {
		value = (value < 0 ? 0 : value) * 10 + (*p->s++ - '0');
		if (value > MAX_COUNT)
			value = MAX_COUNT + 1;
	}
	return value;
}

/* {m}, {m,}, {m,n}, {,n} at p->s (past the '{'): the bounds, or false on error. */
static bool parse_interval(struct parser *p, int *ret_min, int *ret_max)
{
	const char *open = p->s - 1;
	int min = parse_count(p), max = min;

	if (*p->s == ',') {
		p->s++;
		max = parse_count(p);
		if (min < 0)
			min = 0;
	} else if (min < 0) {
		min = MAX_COUNT + 2; /* no digit at all: refused below */
	}
	if (*p->s != '}') {
		fail(p, open, strchr(p->s, '}') ? "invalid content of {}" : "unmatched {");
		return false;
	}
	p->s++;
	if (min > MAX_COUNT || max > MAX_COUNT || (max >= 0 && max < min)) {
		fail(p, open, "invalid content of {}");
		return false;
	}
	*ret_min = min;
	*ret_max = max;
	return true;
}

/* An atom and the repetitions after it. */
static struct node *parse_repetition(struct parser *p)
{
	struct node *n = parse_atom(p);
	int depth = 0;

	while (n && !p->error && strchr("*+?{", *p->s) && *p->s) {
		struct node *repeat;
		int min = 0, max = -1;
		const char *at = p->s;

		if (n->kind == NODE_ASSERT) {
			fail(p, at, "a repetition with nothing before it");
			break;
		}
		switch (*p->s++) {
		case '+':
			min = 1;
			break;
		case '?':
			max = 1;
			break;
		case '{':
			if (!parse_interval(p, &min, &max))
				return n;
			break;
		}
		if (++depth + p->depth > MAX_DEPTH) {
			fail(p, at, "groups and repetitions nest too deep");
			break;
		}
		repeat = new_node(p, NODE_REPEAT);
		if (!repeat || !add_kid(p, repeat, n)) {
			free(repeat);
			break;
		}
		repeat->min = min;
		repeat->max = max;
		n = repeat;
	}
	return n;
}

/* Atoms and their repetitions, one after another, up to a '|', a group's ')' or the end. */
static struct node *parse_sequence(struct parser *p)
{
	struct node *cat = new_node(p, NODE_CAT), *n;

	while (cat && !p->error && !p->no_memory && (n = parse_repetition(p)))
		if (!add_kid(p, cat, n)) {
			free_node(n);
			break;
		}
	return cat;
}

static struct node *parse_alternation(struct parser *p)
{
	struct node *alt = new_node(p, NODE_ALT), *n;

	while (alt && !p->error && !p->no_memory) {
		n = parse_sequence(p);
		if (!n || !add_kid(p, alt, n)) {
			free_node(n);
			break;
		}
		if (*p->s != '|')
			break;
		p->s++;
	}
	return alt;
}

/* How many instructions N writes out to; saturates past ERE_MAX_STATES. */
static uint64_t program_size(const struct node *n)
{
	uint64_t size = 0, kid;

	switch (n->kind) {
	case NODE_EMPTY:
		return 0;
	case NODE_CAT:
		for (size_t i = 0; i < n->n_kids && size <= ERE_MAX_STATES; i++)
			size += program_size(n->kids[i]);
		return size;
	case NODE_ALT:
		/* A split and a jump around each but the last. */
		for (size_t i = 0; i < n->n_kids && size <= ERE_MAX_STATES; i++)
			size += program_size(n->kids[i]) + (i + 1 < n->n_kids ? 2 : 0);
		return size;
	case NODE_REPEAT:
		kid = program_size(n->kids[0]);
		if (kid > ERE_MAX_STATES)
			return kid;
		size = kid * (uint64_t)n->min;
		size += n->max < 0 ? kid + 2 : (kid + 1) * (uint64_t)(n->max - n->min);
		return size;
	default:
		return 1;
	}
}

static uint32_t emit(struct ere *re, enum op op, int32_t c)
{
	struct instruction *i = &re->program[re->n_program];

	i->op = op;
	i->c = c;
	i->x = i->y = 0;
	return (uint32_t)re->n_program++;
}

/*
 * Jumps whose target is not known yet are chained through the field that
 * will hold it (the index + 1 of the previous one, 0 for none), then all set
 * at once: nothing is allocated for them.
 */
static void resolve(struct ere *re, uint32_t chain, bool in_y, uint32_t target)
{
	while (chain) {
		struct instruction *i = &re->program[chain - 1];

		chain = in_y ? i->y : i->x;
		if (in_y)
			i->y = target;
		else
			i->x = target;
	}
}

/* N's instructions, at the end of the program (sized by program_size() before). */
static void write_out(struct ere *re, const struct node *n)
{
	uint32_t split, jump, chain = 0;

	switch (n->kind) {
	case NODE_EMPTY:
		return;
	case NODE_CHAR:
		emit(re, OP_CHAR, n->c);
		return;
	case NODE_ANY:
		emit(re, OP_ANY, 0);
		return;
	case NODE_SET:
		emit(re, OP_SET, (int32_t)n->set);
		return;
	case NODE_ASSERT:
		emit(re, OP_ASSERT, (int32_t)n->at);
		return;
	case NODE_CAT:
		for (size_t i = 0; i < n->n_kids; i++)
			write_out(re, n->kids[i]);
		return;
	case NODE_ALT:
		/* Each but the last: split to it or past it; after it, a jump to the end. */
		for (size_t i = 0; i + 1 < n->n_kids; i++) {
			split = emit(re, OP_SPLIT, 0);
			re->program[split].x = split + 1;
			write_out(re, n->kids[i]);
			jump = emit(re, OP_JUMP, 0);
			re->program[jump].x = chain;
			chain = jump + 1;
			re->program[split].y = jump + 1;
		}
		write_out(re, n->kids[n->n_kids - 1]);
		resolve(re, chain, false, (uint32_t)re->n_program);
		return;
	case NODE_REPEAT:
		/* An empty expression repeated is empty: "(){32767}{32767}" writes nothing. */
		if (program_size(n->kids[0]) == 0)
			return;
		for (int i = 0; i < n->min; i++)
			write_out(re, n->kids[0]);
		if (n->max < 0) {
			/* split into one more or out; after it, back to the split. */
			split = emit(re, OP_SPLIT, 0);
			write_out(re, n->kids[0]);
			jump = emit(re, OP_JUMP, 0);
			re->program[jump].x = split;
			re->program[split].x = split + 1;
			re->program[split].y = jump + 1;
			return;
		}
		/* Each optional copy: split into it or out past them all. */
		for (int i = n->min; i < n->max; i++) {
			split = emit(re, OP_SPLIT, 0);
			re->program[split].x = split + 1;
			re->program[split].y = chain;
			chain = split + 1;
			write_out(re, n->kids[0]);
		}
		resolve(re, chain, true, (uint32_t)re->n_program);
		return;
	}
}

static bool is_word(const struct ere *re, int32_t c)
{
	if (c < 0 || c >= INVALID_BYTE)
		return false;
	if (c == '_')
		return true;
	if (re->utf8)
		return iswalnum((wint_t)c);
	return iswalnum(btowc(c));
}

static bool in_set(const struct ere *re, const struct set *set, int32_t c)
{
	bool in = set->underscore && c == '_';
	wint_t wc = c >= INVALID_BYTE ? WEOF : re->utf8 ? (wint_t)c : btowc(c);

	/* A byte of no UTF-8 sequence is in a set only by name, as glibc's matcher has it. */
	if (c >= INVALID_BYTE) {
		for (size_t i = 0; i < set->n_ranges && !set->negated; i++)
			if (c >= set->ranges[i][0] && c <= set->ranges[i][1])
				return true;
		return false;
	}

	for (size_t i = 0; i < set->n_ranges && !in; i++)
		in = c >= set->ranges[i][0] && c <= set->ranges[i][1];
	for (size_t i = 0; i < set->n_classes && !in && wc != WEOF; i++)
		in = iswctype(wc, set->classes[i]);
	return in != set->negated;
}

/* Whether assertion AT holds between characters BEFORE and AFTER (-1: the text's ends). */
static bool holds(const struct ere *re, enum assertion at, int32_t before, int32_t after)
{
	bool word_before = is_word(re, before), word_after = is_word(re, after);

	switch (at) {
	case AT_START:
		return before < 0;
	case AT_END:
		return after < 0;
	case AT_WORD_BOUNDARY:
		return word_before != word_after;
	case AT_NOT_WORD_BOUNDARY:
		return word_before == word_after;
	case AT_WORD_START:
		return !word_before && word_after;
	case AT_WORD_END:
		return word_before && !word_after;
	}
	return false;
}

/*
 * Add state PC and every state it reaches without reading a character to
 * LIST, between characters BEFORE and AFTER.  True if one of them is the
 * match.  Each state once per list: loops of no character end there.
 */
static bool add_state(struct ere *re, struct state_list *list, uint32_t pc, int32_t before,
		      int32_t after)
{
	size_t top = 0;

	re->stack[top++] = pc;
	while (top) {
		const struct instruction *i;

		pc = re->stack[--top];
		if (list->mark[pc] == re->generation)
			continue;
		list->mark[pc] = re->generation;
		i = &re->program[pc];
		switch (i->op) {
		case OP_MATCH:
			return true;
		case OP_JUMP:
			re->stack[top++] = i->x;
			break;
		case OP_SPLIT:
			re->stack[top++] = i->y;
			re->stack[top++] = i->x;
			break;
		case OP_ASSERT:
			if (holds(re, (enum assertion)i->c, before, after))
				re->stack[top++] = pc + 1;
			break;
		default:
			list->consumers[list->n++] = pc;
			break;
		}
	}
	return false;
}

/* A fresh generation of marks for the next list: both lists' marks are from older ones. */
static void next_generation(struct ere *re)
{
	if (++re->generation == 0) {
		memset(re->lists[0].mark, 0, re->n_program * sizeof(uint32_t));
		memset(re->lists[1].mark, 0, re->n_program * sizeof(uint32_t));
		re->generation = 1;
	}
}

bool ere_match(struct ere *re, const char *text)
{
	struct state_list *now = &re->lists[0], *next = &re->lists[1], *swap;
	int32_t before = -1, c, after;
	size_t length, next_length = 0;
	const char *s = text;

	c = *s ? next_char(s, re->utf8, &length) : -1;
	now->n = 0;
	next_generation(re);
	for (;;) {
		/* A match may start here too. */
		if (add_state(re, now, 0, before, c))
			return true;
		if (c < 0)
			return false;
		after = s[length] ? next_char(s + length, re->utf8, &next_length) : -1;
		next->n = 0;
		next_generation(re);
		for (size_t k = 0; k < now->n; k++) {
			const struct instruction *i = &re->program[now->consumers[k]];
			bool step = (i->op == OP_CHAR && i->c == c) ||
				    (i->op == OP_ANY && c < INVALID_BYTE) ||
				    (i->op == OP_SET && in_set(re, &re->sets[i->c], c));

			if (step && add_state(re, next, now->consumers[k] + 1, c, after))
				return true;
		}
		swap = now, now = next, next = swap;
		/* The states added next go in with this generation's marks. */
		s += length;
		length = next_length;
		before = c;
		c = after;
	}
}

void ere_free(struct ere *re)
{
	if (!re)
		return;
	for (size_t i = 0; i < re->n_sets; i++) {
		free(re->sets[i].ranges);
		free(re->sets[i].classes);
	}
	free(re->sets);
	free(re->program);
	for (size_t i = 0; i < 2; i++) {
		free(re->lists[i].mark);
		free(re->lists[i].consumers);
	}
	free(re->stack);
	free(re);
}

int ere_compile(const char *pattern, bool utf8, struct ere **ret, const char **ret_error,
		size_t *ret_offset)
{
	struct parser p = { .start = pattern, .s = pattern, .utf8 = utf8 };
	struct node *tree;
	uint64_t size;
	struct ere *re;

	re = calloc(1, sizeof(*re));
	if (!re)
		return -ENOMEM;
	re->utf8 = utf8;
	p.re = re;
	tree = parse_alternation(&p);
	if (!p.error && !p.no_memory && *p.s)
		fail(&p, p.s, "unmatched )"); /* not reached: a ')' outside a group is itself */
	size = tree && !p.error && !p.no_memory ? program_size(tree) + 1 : 0;
	if (size > ERE_MAX_STATES)
		fail(&p, pattern,
		     "too big: written out, its repetitions come to more states than "
		     "the matcher keeps (20000)");
	if (!p.error && !p.no_memory && tree) {
		re->program = calloc(size, sizeof(*re->program));
		re->lists[0].mark = calloc(size, sizeof(uint32_t));
		re->lists[1].mark = calloc(size, sizeof(uint32_t));
		re->lists[0].consumers = calloc(size, sizeof(uint32_t));
		re->lists[1].consumers = calloc(size, sizeof(uint32_t));
		/* Each state is expanded once per list, and pushes at most two. */
		re->stack = calloc(2 * size + 1, sizeof(uint32_t));
		p.no_memory = !re->program || !re->lists[0].mark || !re->lists[1].mark ||
			      !re->lists[0].consumers || !re->lists[1].consumers || !re->stack;
	}
	if (!p.error && !p.no_memory && tree) {
		write_out(re, tree);
		emit(re, OP_MATCH, 0);
	}
	free_node(tree);
	if (p.error || p.no_memory || !tree) {
		ere_free(re);
		if (p.error) {
			*ret_error = p.error;
			*ret_offset = p.error_offset;
			return -EINVAL;
		}
		return -ENOMEM;
	}
	*ret = re;
	return 0;
}
