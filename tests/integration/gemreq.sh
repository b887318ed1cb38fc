#!/bin/sh
# gemreq.sh - a Gemfile's ruby directive judged as Bundler judges it:
# Debian's ruby (RubyGems) is the oracle (Bundler::RubyVersion#matches?:
# every string Gem::Requirement.create(req).satisfied_by?(Gem::Version
# .create(version)); an error, BadRequirementError or a malformed version,
# is -1), held against src/parse/gemreq.c through a small driver linked
# with the build's library, on RubyGems' own kinds of requirement and
# 4,000 generated ones (a fixed seed: the same cases every run).
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

if ! /usr/bin/ruby -e 'Gem::Requirement' 2>/dev/null; then
	skip "no ruby (Debian's ruby, with RubyGems: make deps-check installs it)"
	finish
	exit
fi
if ! reqcheck_build; then
	finish
	exit
fi
/usr/bin/ruby - "$TEST_TMPDIR/cases" "$TEST_TMPDIR/oracle" <<'RBEOF'
fixed = ["3.4.4", "= 3.4.4", "~> 3.3", "~> 3.3.0", "~> 3", ">= 3.1, < 3.4", "!= 3.3.0",
         "> 3.2", "<= 3.3", "3.3", "3.3.0.0", "3.4.0.preview1", "~> 3.4.0.preview1",
         "3.4.0-rc1", ">= 3.4.0.a", "~> 2.7", "", " ", "3.x", ">=3.1", "=3.3.0",
         "~>3.3", "3..3", "3.3.", ".3", "v3.3", "=> 3.3", "~> 3.3, >= 3.3.1",
         "3.3.0, 3.3.0", "~> 0", "~> 3.3.0-rc1", ">= 3.3.0-", "3-1", "1.0-rc-1.2"]
rng = Random.new(21)
ops = ["", "= ", "!= ", "> ", "< ", ">= ", "<= ", "~> ", "~>", ">="]
def ver(rng)
  parts = [[2, 3, 4].sample(random: rng), rng.rand(0..5), rng.rand(0..9), rng.rand(0..2)]
  v = parts[0, rng.rand(1..4)].join(".")
  v += [".preview1", ".rc2", "-rc1", ".a", ""].sample(random: rng) if rng.rand < 0.2
  v
end
cases = fixed + Array.new(4000) do
  Array.new(rng.rand(1..2)) { ops.sample(random: rng) + ver(rng) }.join(", ")
end
versions = ["3.3.0", "3.4.4", "3.1.2", "2.7.8", "3.4.0.preview1", "3.3.10", "4.0.0"]
File.open(ARGV[0], "w") do |c|
  File.open(ARGV[1], "w") do |o|
    cases.each_with_index do |req, i|
      v = versions[i % versions.size]
      a = begin
            # "".split gives no string at all; Bundler asks about one
            (req.empty? ? [req] : req.split(",", -1)).all? do |r|
              Gem::Requirement.create(r).satisfied_by?(Gem::Version.create(v))
            end ? 1 : 0
          rescue Gem::Requirement::BadRequirementError, ArgumentError
            -1
          end
      c.write("#{req}\t#{v}\n")
      o.write("#{a}\n")
    end
  end
end
RBEOF
reqcheck_compare gem requirements RubyGems
finish
