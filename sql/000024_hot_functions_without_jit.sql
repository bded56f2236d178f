-- 000024: no JIT compilation inside the hot-path functions (issue 15).
-- JIT compiles a query when its estimated cost passes jit_above_cost. On a
-- tenant holding a million inquiries the velocity statement's estimate did
-- (the planner prices each index probe as if it might return thousands of
-- rows), and every inquiry paid 13-18 ms of compilation for a statement that
-- runs in 0.15 ms (auto_explain: "JIT: Functions: 12"), which made an
-- inquiry 70 % slower than on an empty tenant. These statements are index
-- look-ups that return a few rows; compiling them can never pay off.
ALTER FUNCTION tas_presentation_velocity(text[], text[]) SET jit = off;
ALTER FUNCTION tas_shared_values(uuid[], text[], text[], integer) SET jit = off;
