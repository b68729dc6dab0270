-- wrk script: POST the file named by BODY_FILE to the URL wrk is given (METHOD=GET without BODY_FILE: GET it). With
-- BAD_BODIES (files separated by ':'), each request posts the next of those files instead. With UNIQUE_NAME, a text
-- of the body (a signer's name), each request numbers it after UNIQUE_RUN, the thread and a count, so that no two
-- requests sign the same consent (as real signers do not: each PDF and record is new to the store). The answers are
-- counted by status and printed at the end.
wrk.method = os.getenv("METHOD") or "POST"
if wrk.method == "POST" then wrk.headers["Content-Type"] = "application/json" end

local function read(name)
  local file = assert(io.open(name, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

local bad = os.getenv("BAD_BODIES")
local unique = os.getenv("UNIQUE_NAME")
local requests, threads, next = {}, {}, 0
if unique ~= nil and unique ~= "" then
  local template = read(os.getenv("BODY_FILE"))
  local first, last = string.find(template, unique, 1, true)
  assert(first, "UNIQUE_NAME is not in the body")
  local before, after = string.sub(template, 1, last), string.sub(template, last + 1)
  local prefix = " " .. (os.getenv("UNIQUE_RUN") or "") .. "-"
  function request()
    next = next + 1
    return wrk.format(nil, nil, nil, before .. prefix .. thread_number .. "-" .. next .. after)
  end
elseif bad == nil or bad == "" then
  if os.getenv("BODY_FILE") then wrk.body = read(os.getenv("BODY_FILE")) end
else
  for name in string.gmatch(bad, "[^:]+") do
    table.insert(requests, wrk.format("POST", nil, nil, read(name)))
  end
  function request()
    next = next % #requests + 1
    return requests[next]
  end
end

-- Every answer is counted by status (a busy server's 503s apart from its renders), and the counts printed.
function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, count)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  local keys = {}
  for status in pairs(total) do table.insert(keys, status) end
  table.sort(keys)
  for _, status in ipairs(keys) do io.write(string.format("HTTP %d: %d answers\n", status, total[status])) end
end
