// The shipping address every check that ships, quotes or redeems sends (a real US address the carriers'
// rules accept; docs/conformance.md). One place, so a check never drifts from the others' address.

export const US_ADDRESS = {
  name: "Conformance Check",
  street1: "100 Congress Ave",
  city: "Austin",
  state: "TX",
  zip: "78701",
  country: "US",
};

/** The same address with the phone number a redemption's carrier may ask for. */
export const US_WITH_PHONE = { ...US_ADDRESS, phone: "+15125550100" };
