-- wrk script: POST the file named by BODY_FILE to the URL wrk is given.
wrk.method = "POST"
local file = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
