// SPDX-License-Identifier: Apache-2.0

/// The rules of users on shared devices: how long an enrolment code lasts, how many wrong passcodes lead to a wait
/// and to revocation, and what a passcode costs to hash.
public struct AccountPolicy: Sendable, Hashable {
    /// Seconds an enrolment code may be used after it is issued; default 86,400 (24 hours: an administrator hands it
    /// out the day the person starts).
    public var codeLifetime: Int
    /// Consecutive wrong passcodes after which the user must wait ``wait`` seconds; default 5.
    public var failuresBeforeWait: Int
    /// Seconds a user waits after each ``failuresBeforeWait`` consecutive wrong passcodes; default 300 (5 minutes).
    public var wait: Int
    /// Consecutive wrong passcodes after which the user's enrolment on the device is revoked and the user must be
    /// onboarded again with a new code; default 10.
    public var failuresBeforeRevocation: Int
    /// The cost of hashing a new passcode; default ``PasscodeHash/Cost/standard``.
    public var passcodeCost: PasscodeHash.Cost

    /// Creates a policy; the defaults are documented on each property. Counts and times below 1 are taken as 1.
    public init(codeLifetime: Int = 86_400, failuresBeforeWait: Int = 5, wait: Int = 300, failuresBeforeRevocation: Int = 10,
                passcodeCost: PasscodeHash.Cost = .standard) {
        self.codeLifetime = max(1, codeLifetime)
        self.failuresBeforeWait = max(1, failuresBeforeWait)
        self.wait = max(1, wait)
        self.failuresBeforeRevocation = max(1, failuresBeforeRevocation)
        self.passcodeCost = passcodeCost
    }
}
