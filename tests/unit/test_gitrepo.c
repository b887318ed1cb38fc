/* test_gitrepo.c - would git commit this file: the work tree found from
 * the audited directory up, the rule files read (and the ones not read),
 * a linked worktree's git directory and common directory, the global
 * excludes file from git's config.  Built by hand, without git, so that
 * every piece is known; tests/integration/cli.sh asks real work trees.
 */
#include "test.h"
#include "gitignore.h"
#include "gitrepo.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

static char base[PATH_MAX];

static const char *at(const char *rel)
{
	static char p[8][PATH_MAX + 64];
	static int k;

	k = (k + 1) % 8;	/* more than any one call takes */
	snprintf(p[k], sizeof(p[k]), "%s/%s", base, rel);
	return p[k];
}

/* Look at file from start, named relative to shown, with home and xdg. */
static void look(const char *start, const char *file, const char *shown,
		 const char *home, const char *xdg, struct gitrepo_file *g)
{
	struct gitrepo_query q = { start, file, shown, home, xdg };

	gitrepo_look(&q, g);
}

/* The deciding rule for g->path: "source:line", "!source:line" for a
 * negation, or "" when none. */
static const char *verdict(const struct gitignore *ig, const char *path)
{
	static char out[PATH_MAX + 32];
	struct gitignore_match m;
	int hit = ig ? gitignore_match(ig, path, 0, &m) : 0;

	if (!ig || !m.source)
		return "";
	snprintf(out, sizeof(out), "%s%s:%u", hit ? "" : "!", m.source, m.line);
	return out;
}

static void test_tree(void)
{
	struct gitrepo_file g;
	char want[PATH_MAX + 64];

	/* top/.git, rules at the top and in app/, the .env in app/ */
	test_write_str(base, "top/.git/info/exclude", "*.local\n");
	test_write_str(base, "top/.gitignore", "# root\n/app/.env\n");
	test_write_str(base, "top/app/.gitignore", "!.env\n");
	test_write_str(base, "top/app/.env", "A=1\n");
	look(at("top/app"), at("top/app/.env"), at("top/app"), NULL, NULL, &g);
	CHECK_STR(g.top, at("top"), "the work tree's top");
	CHECK_STR(g.path, "app/.env", "relative to the top");
	CHECK_INT(g.tracked, 0, "no index yet: not tracked");
	/* a deeper .gitignore beats a shallower one; named relative to the
	 * audited directory when inside it */
	CHECK_STR(verdict(g.ignore, g.path), "!.gitignore:1", "app/.gitignore re-includes");
	CHECK(g.ignore_global == NULL, "no home, no xdg: no global file");
	gitrepo_release(&g);

	/* from the top: every rule file relative to it */
	unlink(at("top/app/.gitignore"));
	look(at("top"), at("top/app/.env"), at("top"), NULL, NULL, &g);
	CHECK_STR(verdict(g.ignore, g.path), ".gitignore:2", "the top rule");
	gitrepo_release(&g);

	/* audited below the rule: the rule file by its absolute path */
	look(at("top/app"), at("top/app/.env"), at("top/app"), NULL, NULL, &g);
	snprintf(want, sizeof(want), "%s:2", at("top/.gitignore"));
	CHECK_STR(verdict(g.ignore, g.path), want, "above DIR: absolute");
	gitrepo_release(&g);

	/* a .gitignore that is a symlink is not followed, even inside */
	test_write_str(base, "top/app/real-rules", ".env\n");
	CHECK(symlink("real-rules", at("top/app/.gitignore")) == 0, "symlink: %s",
	      strerror(errno));
	unlink(at("top/.gitignore"));
	look(at("top"), at("top/app/.env"), at("top"), NULL, NULL, &g);
	CHECK_STR(verdict(g.ignore, g.path), "", "symlinked .gitignore not read");
	gitrepo_release(&g);

	/* info/exclude is the lowest rule file */
	test_write_str(base, "top/.git/info/exclude", ".env\n");
	look(at("top"), at("top/app/.env"), at("top"), NULL, NULL, &g);
	CHECK_STR(verdict(g.ignore, g.path), ".git/info/exclude:1", "info/exclude");
	gitrepo_release(&g);

	/* a .env outside the work tree */
	test_write_str(base, "elsewhere/.env", "A=1\n");
	look(at("top"), at("elsewhere/.env"), at("top"), NULL, NULL, &g);
	CHECK(g.top && g.path == NULL, "outside the work tree: no path");
	gitrepo_release(&g);

	/* no work tree at all (nothing above base holds a .git) */
	look(at("elsewhere"), at("elsewhere/.env"), at("elsewhere"), NULL, NULL, &g);
	if (g.top)
		SKIP("not in a work tree: %s is inside a git work tree", base);
	else
		CHECK(g.path == NULL, "not in a work tree");
	gitrepo_release(&g);
}

/* A linked worktree: .git is a file naming its git directory, whose
 * commondir holds the shared info/exclude. */
static void test_linked(void)
{
	struct gitrepo_file g;

	test_write_str(base, "main/.git/info/exclude", "/.env\n");
	test_write_str(base, "main/.git/worktrees/wt/commondir", "../..\n");
	test_write_str(base, "wt/.git", "gitdir: ../main/.git/worktrees/wt\n");
	test_write_str(base, "wt/.env", "A=1\n");
	look(at("wt"), at("wt/.env"), at("wt"), NULL, NULL, &g);
	CHECK_STR(g.top, at("wt"), "the linked worktree's top");
	/* named as reached: lexically below wt/, so relative to it */
	CHECK_STR(verdict(g.ignore, g.path), "../main/.git/worktrees/wt/../../info/exclude:1",
		  "the common info/exclude");
	CHECK_INT(g.tracked, 0, "no index: not tracked");
	gitrepo_release(&g);

	/* a .git file pointing nowhere: the index cannot tell */
	test_write_str(base, "lost/.git", "gitdir: /nonexistent/envpreflight\n");
	test_write_str(base, "lost/.gitignore", ".env\n");
	look(at("lost"), at("lost/.env"), at("lost"), NULL, NULL, &g);
	CHECK_INT(g.tracked, 0, "a missing index: not tracked");
	CHECK_STR(verdict(g.ignore, g.path), ".gitignore:1", "the rules still decide");
	gitrepo_release(&g);
	test_write_str(base, "lost/.git", "not a pointer\n");
	look(at("lost"), at("lost/.env"), at("lost"), NULL, NULL, &g);
	CHECK_INT(g.tracked, -1, "no git directory: unknown");
	gitrepo_release(&g);
}

/* The global excludes file: core.excludesFile (later file wins, "~/"
 * expanded), else $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore. */
static void test_global(void)
{
	struct gitrepo_file g;
	char want[PATH_MAX + 64];

	test_write_str(base, "gl/.git/HEAD", "");
	test_write_str(base, "gl/.env", "A=1\n");
	test_write_str(base, "xdg/git/ignore", ".env\n");
	look(at("gl"), at("gl/.env"), at("gl"), NULL, at("xdg"), &g);
	CHECK_STR(g.global_excludes, at("xdg/git/ignore"), "xdg default");
	snprintf(want, sizeof(want), "%s:1", at("xdg/git/ignore"));
	CHECK_STR(verdict(g.ignore_global, g.path), want, "matched there");
	CHECK_STR(verdict(g.ignore, g.path), "", "not the repository's rules");
	gitrepo_release(&g);

	test_write_str(base, "home/.config/git/ignore", "/.env\n");
	look(at("gl"), at("gl/.env"), at("gl"), at("home"), "relative/xdg", &g);
	CHECK_STR(g.global_excludes, at("home/.config/git/ignore"),
		  "a relative XDG_CONFIG_HOME is not used");
	gitrepo_release(&g);

	test_write_str(base, "xdg/git/config", "[core]\n\texcludesFile = /nope\n");
	test_write_str(base, "home/.gitconfig", "[core]\n\texcludesfile = ~/mine\n");
	test_write_str(base, "home/mine", "*.env\n.env\n");
	look(at("gl"), at("gl/.env"), at("gl"), at("home"), at("xdg"), &g);
	CHECK_STR(g.global_excludes, at("home/mine"), "~/.gitconfig wins, ~ expanded");
	snprintf(want, sizeof(want), "%s:2", at("home/mine"));
	CHECK_STR(verdict(g.ignore_global, g.path), want, "its last matching line");
	gitrepo_release(&g);
}

void test_main(void)
{
	char *canon;

	snprintf(base, sizeof(base), "%s", test_tmpdir("gitrepo"));
	canon = realpath(base, NULL);
	snprintf(base, sizeof(base), "%s", canon);
	free(canon);
	test_tree();
	test_linked();
	test_global();
}
