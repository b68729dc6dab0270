-- wrk script: GET the URL wrk is given (headers from -H), counting the answers by status, printed at the end.
local threads = {}
function setup(thread) table.insert(threads, thread) end
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
