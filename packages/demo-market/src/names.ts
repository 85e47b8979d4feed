// Word lists for the names in the demo market. Place, utility and company names are invented
// (Texan in flavour, but not real entities), so nobody mistakes the demo's made-up facts for
// facts about a real town or company. Street names and highway numbers are the common ones of
// central Texas, which only make addresses look familiar.

export const TOWN_ROOTS = [
  'Pecan', 'Cedar', 'Live Oak', 'Mesquite', 'Bluebonnet', 'Limestone', 'Cypress', 'Blanco',
  'Post Oak', 'Red Bud', 'Prairie', 'Granite', 'Walnut', 'Sycamore', 'Hackberry', 'Caliche',
  'Sandy', 'Mustang', 'Bastion', 'Elm', 'Willow', 'Onion', 'Flint', 'Chisholm', 'Cotton',
  'Bison', 'Turkey', 'Brushy', 'Rocky', 'Salado', 'Lampasas', 'Colorado', 'Guadalupe', 'Yegua',
] as const;

export const TOWN_SUFFIXES = [
  'Springs', 'Creek', 'Hill', 'Crossing', 'Valley', 'Bluff', 'Grove', 'Bend', 'Ridge', 'Flats',
  'Station', 'Gap', 'Point', 'Falls', 'Prairie', 'Hollow',
] as const;

export const CORE_NAME = 'Capital City';

export const STREET_NAMES = [
  'Lamar', 'Burnet', 'Congress', 'Guadalupe', 'Airport', 'Oltorf', 'Riverside', 'Cesar Chavez',
  'Pleasant Valley', 'Manchaca', 'Slaughter', 'Parmer', 'Rundberg', 'Braker', 'Anderson Mill',
  'Spicewood Springs', 'Bee Caves', 'Southwest', 'Loyola', 'Decker', 'Dessau', 'Cameron',
  'Springdale', 'Montopolis', 'Burleson', 'Stassney', 'William Cannon', 'Brodie', 'Escarpment',
  'Davis', 'Mopac', 'Pecan Park', 'Wells Branch', 'Howard', 'Duval', 'Shoal Creek', 'Jollyville',
  'McNeil', 'Grand Avenue', 'Kenney Fort', 'Gattis School', 'Palm Valley', 'Chandler', 'Hesters Crossing',
  'Old Settlers', 'Red Bud', 'Wildflower', 'Live Oak', 'Post Oak', 'Mockingbird', 'Meadowlark',
  'Hidden Valley', 'Bluebonnet', 'Prairie Dawn', 'Cattle Drive', 'Windmill', 'Stagecoach',
  'Old Mill', 'Pioneer', 'Sunset Ridge', 'Hillside', 'Quarry', 'Limestone', 'Whispering Oaks',
] as const;

/** USPS standard suffix abbreviations, weighted towards the common ones. */
export const STREET_SUFFIXES: readonly (readonly [string, number])[] = [
  ['Rd', 20], ['Dr', 16], ['Ln', 12], ['St', 12], ['Blvd', 8], ['Ave', 8], ['Pkwy', 5],
  ['Trl', 5], ['Way', 5], ['Loop', 3], ['Cv', 2], ['Ct', 2], ['Hwy', 2],
];

export const DIRECTIONALS = ['N', 'S', 'E', 'W'] as const;

/** Rural road designations of Texas: farm-to-market, ranch-to-market, county and private roads. */
export const RURAL_ROAD_KINDS: readonly (readonly [string, number])[] = [
  ['FM', 40], ['County Road', 35], ['Ranch Road', 10], ['Private Road', 8], ['State Highway', 7],
];

export const SURNAMES = [
  'Garcia', 'Hernandez', 'Martinez', 'Lopez', 'Gonzalez', 'Rodriguez', 'Perez', 'Sanchez',
  'Ramirez', 'Flores', 'Villarreal', 'Trevino', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones',
  'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Moore', 'Jackson', 'White', 'Harris',
  'Clark', 'Lewis', 'Walker', 'Hall', 'Young', 'King', 'Wright', 'Scott', 'Green', 'Baker',
  'Adams', 'Nelson', 'Carter', 'Mitchell', 'Roberts', 'Turner', 'Phillips', 'Campbell', 'Parker',
  'Schmidt', 'Mueller', 'Fischer', 'Weber', 'Schulz', 'Wagner', 'Becker', 'Hoffmann', 'Krause',
  'Kubicek', 'Novak', 'Dvorak', 'Hajek', 'Pokorny', 'Nguyen', 'Tran', 'Pham', 'Patel', 'Shah',
  'Kim', 'Lee', 'Pruitt', 'Henderson', 'McBride', 'Whitaker', 'Dawson', 'Rutledge', 'Stroud',
] as const;

export const GIVEN_NAMES = [
  'James', 'Robert', 'John', 'Michael', 'David', 'William', 'Richard', 'Jose', 'Juan', 'Carlos',
  'Thomas', 'Charles', 'Daniel', 'Walter', 'Ernest', 'Billy', 'Mary', 'Patricia', 'Linda',
  'Barbara', 'Elizabeth', 'Maria', 'Rosa', 'Susan', 'Margaret', 'Dorothy', 'Karen', 'Nancy',
  'Betty', 'Sandra', 'Carol', 'Anh', 'Priya', 'Min',
] as const;

export const COMPANY_PREFIXES = [
  'Lone Star', 'Bluebonnet', 'Hill Country', 'Balcones', 'Pecan Creek', 'Live Oak', 'Brazos',
  'Cedar Ridge', 'Capital', 'Prairie', 'Red Rock', 'Longhorn', 'Mesquite', 'Onion Creek',
  'Blackland', 'Granite', 'Limestone', 'Trinity', 'Post Oak', 'Colorado Bend', 'Caprock',
  'Five Points', 'Cross Timbers', 'Chisholm Trail', 'Twin Creeks', 'Southfork', 'Highland',
] as const;

export const COMPANY_CORES = [
  'Land', 'Ranch', 'Realty', 'Development', 'Properties', 'Acquisitions', 'Investments',
  'Partners', 'Industrial', 'Farms', 'Land & Cattle', 'Holdings', 'Ventures', 'Logistics',
] as const;

export const COMPANY_FORMS: readonly (readonly [string, number])[] = [
  ['LLC', 45], ['LP', 15], ['Ltd', 15], ['Inc', 10], ['Holdings LLC', 8], ['Partners LP', 7],
];

/** Retail electric utilities: co-ops and wires companies share the countryside; towns may run their own. */
export const UTILITIES: readonly { name: string; priceUsdPerKwh: number }[] = [
  { name: 'Hill Country Electric Cooperative', priceUsdPerKwh: 0.0842 },
  { name: 'Blackland Electric Cooperative', priceUsdPerKwh: 0.0795 },
  { name: 'Pecan Valley Electric Cooperative', priceUsdPerKwh: 0.0811 },
  { name: 'Lone Star Power & Light', priceUsdPerKwh: 0.0689 },
  { name: 'Central Texas Delivery Co', priceUsdPerKwh: 0.0652 },
  { name: 'Brazos Plains Electric Co-op', priceUsdPerKwh: 0.0768 },
  { name: 'Colorado River Power Authority', priceUsdPerKwh: 0.0724 },
];

/** The core's municipal utility. */
export const CORE_UTILITY = { name: 'Capital City Energy', priceUsdPerKwh: 0.0713 };

export const GAS_OPERATORS = [
  'Lone Star Midstream', 'Central Texas Gas Transmission', 'Caprock Pipeline Co',
  'Gulf Plains Gas Transmission', 'Hill Country Gas Utility', 'Balcones Energy Partners',
  'Trinity Pipeline LP',
] as const;
