// Demo content for a global information-management network headquartered in Nairobi (founded
// 2023). Dates are offsets from "today", so the demo never goes stale.
import { HEADQUARTERS } from "~/lib/site-content";

export type SeedCategory = {
  name: string;
  description: string;
  color: string;
  icon: string;
  industrySector: string;
};

export const CATEGORIES: SeedCategory[] = [
  {
    name: "Data Governance",
    description: "Policies, stewardship and accountability for enterprise data.",
    color: "#0B5FFF",
    icon: "shield-check",
    industrySector: "Financial Services",
  },
  {
    name: "Digital Transformation",
    description: "Modernising services, processes and culture with digital tools.",
    color: "#7C3AED",
    icon: "rocket",
    industrySector: "Government & Public Sector",
  },
  {
    name: "Records Management",
    description: "Capture, retention, archiving and disposition of records.",
    color: "#0F766E",
    icon: "archive",
    industrySector: "Government & Public Sector",
  },
  {
    name: "Artificial Intelligence",
    description: "Machine learning, generative AI and responsible automation.",
    color: "#DB2777",
    icon: "brain",
    industrySector: "Technology & Software",
  },
  {
    name: "Cybersecurity & Privacy",
    description: "Protecting information assets and personal data.",
    color: "#DC2626",
    icon: "lock",
    industrySector: "Technology & Software",
  },
  {
    name: "Knowledge Management",
    description: "Sharing what organisations know: taxonomies, intranets, communities.",
    color: "#D97706",
    icon: "library",
    industrySector: "Education & Research",
  },
  {
    name: "Open Data & Research",
    description: "Open science, research data management and data sharing.",
    color: "#059669",
    icon: "globe",
    industrySector: "Education & Research",
  },
  {
    name: "Health Information",
    description: "Electronic health records, interoperability and health data ethics.",
    color: "#0891B2",
    icon: "heart-pulse",
    industrySector: "Healthcare & Life Sciences",
  },
];

export type SeedSpeaker = { name: string; title: string; organization: string; bio: string };

export const SPEAKERS: SeedSpeaker[] = [
  {
    name: "Dr. Wanjiku Kamau",
    title: "Chief Data Officer",
    organization: "Central Bank of Kenya",
    bio: "Wanjiku leads the bank's data strategy and chairs the East African working group on supervisory data standards. She has twenty years of experience in statistics and data governance.",
  },
  {
    name: "Prof. Adebayo Okonkwo",
    title: "Professor of Information Science",
    organization: "University of Lagos",
    bio: "Adebayo researches records continuity in digital government and has advised five national archives on electronic records programmes.",
  },
  {
    name: "Priya Raghunathan",
    title: "Head of AI Ethics",
    organization: "Meridian Analytics",
    bio: "Priya builds governance frameworks for machine-learning systems in banking and insurance, and teaches responsible AI at the Indian Institute of Management.",
  },
  {
    name: "Lars Henriksen",
    title: "Director of Digital Archives",
    organization: "Nordic Records Institute",
    bio: "Lars has spent fifteen years on long-term digital preservation, including the migration of 40 million public records to open formats.",
  },
  {
    name: "Dr. Mei-Ling Chen",
    title: "Research Fellow, Knowledge Systems",
    organization: "National University of Singapore",
    bio: "Mei-Ling studies how knowledge graphs and taxonomies improve enterprise search, with a focus on multilingual organisations.",
  },
  {
    name: "Carlos Mendoza",
    title: "Chief Information Security Officer",
    organization: "Banco Andino",
    bio: "Carlos leads security and privacy for a regional bank serving four million customers across South America.",
  },
  {
    name: "Amara Diallo",
    title: "Open Data Programme Lead",
    organization: "African Development Data Hub",
    bio: "Amara coordinates open data portals for twelve African governments and champions data literacy for journalists and civil society.",
  },
  {
    name: "Sarah O'Connell",
    title: "Principal Consultant, Information Governance",
    organization: "Clearwater Advisory",
    bio: "Sarah helps public bodies in Ireland and the UK design retention schedules and respond to freedom-of-information requests at scale.",
  },
  {
    name: "Hiroshi Tanaka",
    title: "VP Data Platforms",
    organization: "Kaizen Systems",
    bio: "Hiroshi runs the data platform team behind one of Japan's largest logistics networks and writes about data mesh in practice.",
  },
  {
    name: "Dr. Fatima Al-Sayed",
    title: "Director of Health Informatics",
    organization: "Gulf Health Authority",
    bio: "Fatima led the national rollout of interoperable electronic health records and now works on privacy-preserving health analytics.",
  },
  {
    name: "James Whitfield",
    title: "Records and Archives Manager",
    organization: "City of Toronto",
    bio: "James modernised the city's records programme, moving 80 departments to a single electronic records system.",
  },
  {
    name: "Ngozi Eze",
    title: "Founder and CEO",
    organization: "DataBridge Africa",
    bio: "Ngozi founded a data consultancy that has trained over 3,000 information professionals across West and East Africa.",
  },
  {
    name: "Isabela Costa",
    title: "Head of Knowledge Management",
    organization: "Instituto Brasileiro de Pesquisa",
    bio: "Isabela runs knowledge-sharing programmes for a research institute of 2,000 scientists and is an advocate of open research data.",
  },
  {
    name: "Tom Nguyen",
    title: "Lead Data Architect",
    organization: "Southern Cross Health",
    bio: "Tom designs health data platforms in Australia and New Zealand, with a focus on consent management and secure research environments.",
  },
  {
    name: "Dr. Elena Petrova",
    title: "Senior Lecturer in Digital Humanities",
    organization: "University of Edinburgh",
    bio: "Elena works on metadata standards and the digitisation of cultural heritage collections.",
  },
  {
    name: "Michael Otieno",
    title: "Director, Digital Government",
    organization: "ICT Authority of Kenya",
    bio: "Michael oversees the digitisation of public services in Kenya, including the national e-citizen platform.",
  },
];

export type SeedSponsor = {
  name: string;
  tier: "platinum" | "gold" | "silver" | "bronze";
  /** None: the demo companies are fictional, and a made-up domain may belong to someone. */
  websiteUrl: null;
};

export const SPONSORS: SeedSponsor[] = [
  {
    name: "Safari Cloud Technologies",
    tier: "platinum",
    websiteUrl: null,
  },
  {
    name: "Meridian Analytics",
    tier: "platinum",
    websiteUrl: null,
  },
  { name: "ArchivePoint Systems", tier: "gold", websiteUrl: null },
  { name: "Equator Data Services", tier: "gold", websiteUrl: null },
  {
    name: "Kilima Records Solutions",
    tier: "gold",
    websiteUrl: null,
  },
  {
    name: "Northwind Information Group",
    tier: "silver",
    websiteUrl: null,
  },
  { name: "Baobab Software", tier: "silver", websiteUrl: null },
  { name: "Lumen Knowledge Labs", tier: "silver", websiteUrl: null },
  { name: "Savannah Print & Scan", tier: "bronze", websiteUrl: null },
  {
    name: "OpenStack Africa Foundation",
    tier: "bronze",
    websiteUrl: null,
  },
  { name: "Tidewater Consulting", tier: "bronze", websiteUrl: null },
];

export type SeedEvent = {
  title: string;
  type:
    | "conference"
    | "exhibition"
    | "gala"
    | "workshop"
    | "seminar"
    | "networking"
    | "webinar"
    | "vendor";
  category: string | null;
  location: string;
  /** Days from today (negative: past). */
  offset: number;
  days: number;
  theme: string;
  description: string;
  tags: string[];
  status: "draft" | "published" | "archived";
  featured?: boolean;
  sector: string | null;
  /** Seats for the whole event (issue 15); none: no overall limit. */
  capacity?: number;
};

export const EVENTS: SeedEvent[] = [
  {
    title: "Kongamano Annual Information Management Summit",
    type: "conference",
    category: "Data Governance",
    location: "Nairobi, Kenya",
    offset: 45,
    days: 3,
    theme: "Trusted Data for an Inclusive Digital Economy",
    description:
      "Our flagship gathering brings together more than 800 chief data officers, archivists, records managers and researchers from over 25 countries. Three days of keynotes, case studies and hands-on clinics on building data programmes people can trust.",
    tags: ["data governance", "leadership", "africa", "flagship"],
    status: "published",
    featured: true,
    sector: "Financial Services",
  },
  {
    title: "Digital Transformation in the Public Sector Conference",
    type: "conference",
    category: "Digital Transformation",
    location: "Kigali, Rwanda",
    offset: 75,
    days: 2,
    theme: "Citizen-Centred Services at Scale",
    description:
      "Ministers, CIOs and service designers share how they moved paper-based services online, what went wrong, and how they measured the results. Includes a site visit to Irembo, Rwanda's e-government platform.",
    tags: ["e-government", "service design", "public sector"],
    status: "published",
    featured: true,
    sector: "Government & Public Sector",
  },
  {
    title: "Responsible AI for Information Professionals",
    type: "conference",
    category: "Artificial Intelligence",
    location: "London, United Kingdom",
    offset: 110,
    days: 2,
    theme: "From Principles to Practice",
    description:
      "A practical conference on governing machine learning and generative AI: model inventories, data provenance, bias testing and the records implications of AI-generated content.",
    tags: ["ai", "ethics", "generative ai", "governance"],
    status: "published",
    featured: true,
    sector: "Technology & Software",
  },
  {
    title: "Asia-Pacific Records and Archives Congress",
    type: "conference",
    category: "Records Management",
    location: "Singapore, Singapore",
    offset: 160,
    days: 3,
    theme: "Preserving Memory in a Born-Digital World",
    description:
      "Archivists and records leaders from across the region discuss digital preservation, email archiving, and the management of records in collaboration platforms.",
    tags: ["archives", "digital preservation", "asia"],
    status: "published",
    sector: "Government & Public Sector",
  },
  {
    title: "Health Data Interoperability Forum",
    type: "conference",
    category: "Health Information",
    location: "Cape Town, South Africa",
    offset: -60,
    days: 2,
    theme: "Connected Care, Protected Data",
    description:
      "Clinicians, health informaticians and regulators on HL7 FHIR adoption, patient consent and national health information exchanges.",
    tags: ["health", "fhir", "interoperability", "privacy"],
    status: "published",
    sector: "Healthcare & Life Sciences",
  },
  {
    title: "Global Open Research Data Conference",
    type: "conference",
    category: "Open Data & Research",
    location: "Virtual Event, Online",
    offset: 20,
    days: 2,
    theme: "FAIR Data for Everyone",
    description:
      "A fully online conference across time zones on research data management, FAIR principles, data repositories and open science policy. Sessions are recorded and captioned.",
    tags: ["open science", "fair data", "research data", "virtual"],
    status: "published",
    featured: true,
    sector: "Education & Research",
  },
  {
    title: "East African Information Expo",
    type: "exhibition",
    category: "Digital Transformation",
    location: "Nairobi, Kenya",
    offset: 30,
    days: 3,
    theme: "Innovation Made in Africa",
    description:
      "More than 120 exhibitors showcase document management, cloud, analytics and digitisation solutions built for African organisations. Free entry for registered members.",
    tags: ["expo", "startups", "digitisation", "africa"],
    status: "published",
    featured: true,
    sector: "Technology & Software",
  },
  {
    title: "Heritage Digitisation Showcase",
    type: "exhibition",
    category: "Records Management",
    location: "Edinburgh, United Kingdom",
    offset: -120,
    days: 2,
    theme: "Bringing Collections Online",
    description:
      "Libraries, museums and archives present digitisation projects, scanning technology and metadata workflows that opened their collections to the world.",
    tags: ["heritage", "digitisation", "metadata", "museums"],
    status: "published",
    sector: "Education & Research",
  },
  {
    title: "Data and Analytics Innovation Exhibition",
    type: "exhibition",
    category: "Artificial Intelligence",
    location: "Dubai, United Arab Emirates",
    offset: 130,
    days: 3,
    theme: "Analytics at the Speed of Business",
    description:
      "An exhibition floor of analytics platforms, data catalogues and AI tooling, with live demonstrations and a start-up pavilion.",
    tags: ["analytics", "data catalogue", "ai", "expo"],
    status: "published",
    sector: "Technology & Software",
  },
  {
    title: "Kongamano Excellence Awards Gala",
    type: "gala",
    category: "Data Governance",
    location: "Nairobi, Kenya",
    offset: 47,
    days: 1,
    theme: "Celebrating Information Leaders",
    description:
      "An evening celebrating the people and teams who made information work better this year, with awards in eight categories, dinner and live music.",
    tags: ["awards", "gala dinner", "recognition"],
    status: "published",
    sector: null,
  },
  {
    title: "Women in Data Leadership Gala",
    type: "gala",
    category: "Knowledge Management",
    location: "Lagos, Nigeria",
    offset: -30,
    days: 1,
    theme: "Leading the Next Generation",
    description:
      "A celebration of women leading data, records and knowledge teams across Africa, with a mentorship pledge and scholarship fundraising.",
    tags: ["women in data", "leadership", "mentorship"],
    status: "published",
    sector: null,
  },
  {
    title: "Founders' Anniversary Dinner",
    type: "gala",
    category: null,
    location: "Nairobi, Kenya",
    offset: -380,
    days: 1,
    theme: "Where It All Began",
    description:
      "Marking the founding of the network in Nairobi in 2023 with the members, partners and volunteers who built it.",
    tags: ["anniversary", "community"],
    status: "archived",
    sector: null,
  },
  {
    title: "Retention Schedules in Practice Workshop",
    type: "workshop",
    category: "Records Management",
    location: "Toronto, Canada",
    offset: 12,
    days: 1,
    theme: "Keep What Matters, Dispose of the Rest",
    description:
      "A hands-on workshop where participants draft a retention schedule for a sample organisation, map it to legal requirements, and plan defensible disposition.",
    tags: ["retention", "records", "compliance", "hands-on"],
    status: "published",
    sector: "Government & Public Sector",
  },
  {
    title: "Building a Data Catalogue Workshop",
    type: "workshop",
    category: "Data Governance",
    location: "Berlin, Germany",
    offset: 55,
    days: 2,
    theme: "Findable, Understood, Trusted",
    description:
      "Two days of practical exercises: choosing metadata, assigning stewards, writing business glossary terms and measuring catalogue adoption.",
    tags: ["data catalogue", "metadata", "stewardship"],
    status: "published",
    sector: "Financial Services",
    capacity: 30,
  },
  {
    title: "Privacy Impact Assessment Masterclass",
    type: "workshop",
    category: "Cybersecurity & Privacy",
    location: "Nairobi, Kenya",
    offset: -15,
    days: 1,
    theme: "Kenya Data Protection Act in Practice",
    description:
      "Walk through a complete data protection impact assessment under the Kenya Data Protection Act 2019 and GDPR, with templates you can take home.",
    tags: ["privacy", "dpia", "gdpr", "kenya"],
    status: "published",
    sector: "Financial Services",
  },
  {
    title: "Taxonomy Design Bootcamp",
    type: "workshop",
    category: "Knowledge Management",
    location: "Sydney, Australia",
    offset: 95,
    days: 2,
    theme: "Structure That Helps People Find Things",
    description:
      "Learn to design, test and govern taxonomies and controlled vocabularies for intranets, document libraries and search.",
    tags: ["taxonomy", "search", "information architecture"],
    status: "draft",
    sector: "Education & Research",
  },
  {
    title: "Data Ethics Seminar Series",
    type: "seminar",
    category: "Artificial Intelligence",
    location: "Accra, Ghana",
    offset: 25,
    days: 1,
    theme: "Fairness, Accountability, Transparency",
    description:
      "An afternoon of short talks and open discussion on algorithmic accountability, consent, and the ethics of data reuse in African contexts.",
    tags: ["ethics", "ai", "accountability"],
    status: "published",
    sector: "Education & Research",
  },
  {
    title: "Information Security for Records Managers Seminar",
    type: "seminar",
    category: "Cybersecurity & Privacy",
    location: "New York, United States",
    offset: -90,
    days: 1,
    theme: "Classify, Protect, Monitor",
    description:
      "Why records managers and security teams should work together: classification schemes, access controls, and incident response for records.",
    tags: ["security", "classification", "records"],
    status: "published",
    sector: "Financial Services",
  },
  {
    title: "Knowledge Retention Seminar",
    type: "seminar",
    category: "Knowledge Management",
    location: "São Paulo, Brazil",
    offset: 140,
    days: 1,
    theme: "When Experts Retire",
    description:
      "Methods to capture tacit knowledge before experienced staff leave: storytelling, communities of practice and expert interviews.",
    tags: ["knowledge retention", "communities of practice"],
    status: "published",
    sector: "Education & Research",
  },
  {
    title: "Nairobi Data Professionals Mixer",
    type: "networking",
    category: "Data Governance",
    location: "Nairobi, Kenya",
    offset: 8,
    days: 1,
    theme: "Meet, Share, Collaborate",
    description:
      "An informal evening for data, records and knowledge professionals in Nairobi. Lightning talks, job board and refreshments.",
    tags: ["networking", "community", "nairobi"],
    status: "published",
    sector: null,
    capacity: 80,
  },
  {
    title: "Young Information Professionals Meetup",
    type: "networking",
    category: "Knowledge Management",
    location: "Johannesburg, South Africa",
    offset: 60,
    days: 1,
    theme: "Careers in Information Management",
    description:
      "Students and early-career professionals meet mentors, learn about career paths and get CV feedback from hiring managers.",
    tags: ["careers", "students", "mentoring"],
    status: "published",
    sector: "Education & Research",
    capacity: 12,
  },
  {
    title: "Chief Data Officers Roundtable",
    type: "networking",
    category: "Data Governance",
    location: "Singapore, Singapore",
    offset: -200,
    days: 1,
    theme: "Peer Exchange Under Chatham House Rule",
    description:
      "A closed-door roundtable for chief data officers to compare operating models, budgets and lessons learned.",
    tags: ["cdo", "leadership", "roundtable"],
    status: "archived",
    sector: "Financial Services",
  },
  {
    title: "Introduction to Data Governance Webinar",
    type: "webinar",
    category: "Data Governance",
    location: "Virtual Event, Online",
    offset: 5,
    days: 1,
    theme: "Getting Started in 60 Minutes",
    description:
      "A free introductory webinar covering roles, policies and the first ninety days of a data governance programme. Live Q&A with the presenters.",
    tags: ["webinar", "beginners", "data governance", "virtual"],
    status: "published",
    featured: true,
    sector: null,
  },
  {
    title: "Generative AI and Records Webinar",
    type: "webinar",
    category: "Artificial Intelligence",
    location: "Virtual Event, Online",
    offset: -45,
    days: 1,
    theme: "Are Prompts Records?",
    description:
      "What generative AI means for recordkeeping: capturing prompts and outputs, retention, and evidential value.",
    tags: ["generative ai", "records", "virtual"],
    status: "published",
    sector: "Technology & Software",
  },
  {
    title: "Cloud Migration for Archives Webinar",
    type: "webinar",
    category: "Records Management",
    location: "Virtual Event, Online",
    offset: 38,
    days: 1,
    theme: "Moving Collections Safely",
    description:
      "Planning a migration of digital archives to the cloud: fixity checks, chain of custody and exit strategies.",
    tags: ["cloud", "archives", "migration", "virtual"],
    status: "published",
    sector: "Government & Public Sector",
  },
  {
    title: "Health Records Privacy Webinar",
    type: "webinar",
    category: "Health Information",
    location: "Virtual Event, Online",
    offset: 70,
    days: 1,
    theme: "Consent by Design",
    description:
      "How hospitals and health programmes can build consent and access logging into their health information systems from day one.",
    tags: ["health", "privacy", "consent", "virtual"],
    status: "draft",
    sector: "Healthcare & Life Sciences",
  },
  {
    title: "Document Management Vendor Day",
    type: "vendor",
    category: "Digital Transformation",
    location: "Nairobi, Kenya",
    offset: 18,
    days: 1,
    theme: "Compare Solutions Side by Side",
    description:
      "Eight document and records management vendors present to a panel of practitioners and answer the same scripted scenarios, so you can compare like with like.",
    tags: ["vendors", "edrms", "procurement"],
    status: "published",
    sector: "Government & Public Sector",
  },
  {
    title: "Security Tools Vendor Briefing",
    type: "vendor",
    category: "Cybersecurity & Privacy",
    location: "Toronto, Canada",
    offset: -75,
    days: 1,
    theme: "Data Loss Prevention Demystified",
    description:
      "Vendors of data loss prevention and classification tools brief members on capabilities, pricing models and integration.",
    tags: ["security", "dlp", "vendors"],
    status: "draft",
    sector: "Technology & Software",
  },
];

export type SeedPaper = {
  title: string;
  authors: string[];
  abstract: string;
  category: string;
  tags: string[];
  status: "draft" | "submitted" | "under_review" | "accepted" | "rejected" | "published";
  /** Days before today for published_date / created_at. */
  age: number;
  pdf?: boolean;
};

export const PAPERS: SeedPaper[] = [
  {
    title: "Measuring the Maturity of Data Governance Programmes in East African Banks",
    authors: ["Wanjiku Kamau", "Joseph Mwangi"],
    abstract:
      "We surveyed 42 banks in Kenya, Uganda and Tanzania and propose a five-level maturity model for data governance. Banks with a named data owner for every critical data element reported 40% fewer regulatory reporting errors.",
    category: "Data Governance",
    tags: ["data governance", "banking", "maturity model", "east africa"],
    status: "published",
    age: 30,
    pdf: true,
  },
  {
    title: "Records Continuity in Digital Government: Lessons from Nigeria",
    authors: ["Adebayo Okonkwo", "Chiamaka Obi", "Tunde Adeyemi"],
    abstract:
      "This study follows three federal ministries through their move to electronic records and identifies the practices that kept records accessible through staff turnover and system changes.",
    category: "Records Management",
    tags: ["records management", "e-government", "nigeria"],
    status: "published",
    age: 62,
    pdf: true,
  },
  {
    title: "A Practical Framework for Auditing Machine Learning Models",
    authors: ["Priya Raghunathan"],
    abstract:
      "We present a lightweight audit framework for machine learning models in regulated industries, covering data lineage, fairness metrics and documentation, and report its use on 17 production models.",
    category: "Artificial Intelligence",
    tags: ["ai", "audit", "fairness", "model governance"],
    status: "published",
    age: 95,
    pdf: true,
  },
  {
    title: "Long-Term Preservation of Email Archives: A Comparative Study",
    authors: ["Lars Henriksen", "Ingrid Solberg"],
    abstract:
      "We compare four approaches to preserving email at scale and evaluate them on fidelity, cost and retrievability after ten years.",
    category: "Records Management",
    tags: ["digital preservation", "email", "archives"],
    status: "published",
    age: 130,
  },
  {
    title: "Knowledge Graphs for Multilingual Enterprise Search",
    authors: ["Mei-Ling Chen", "Arjun Mehta"],
    abstract:
      "Using a knowledge graph of 120,000 concepts in four languages, enterprise search precision improved by 28% in a multinational engineering firm.",
    category: "Knowledge Management",
    tags: ["knowledge graph", "search", "multilingual", "taxonomy"],
    status: "published",
    age: 160,
    pdf: true,
  },
  {
    title: "Privacy Engineering Patterns for Retail Banking",
    authors: ["Carlos Mendoza", "Lucía Ramírez"],
    abstract:
      "We catalogue twelve privacy engineering patterns used by a South American bank to meet data protection law while keeping analytics useful.",
    category: "Cybersecurity & Privacy",
    tags: ["privacy", "banking", "privacy engineering"],
    status: "published",
    age: 190,
  },
  {
    title: "Open Government Data Portals in Africa: Use and Impact",
    authors: ["Amara Diallo", "Kwame Mensah", "Fatou Ndiaye"],
    abstract:
      "Analysing usage logs from twelve national open data portals, we find that datasets with clear licences and regular updates receive five times more downloads.",
    category: "Open Data & Research",
    tags: ["open data", "government", "africa", "impact"],
    status: "published",
    age: 220,
    pdf: true,
  },
  {
    title: "Freedom of Information Request Handling at Scale",
    authors: ["Sarah O'Connell"],
    abstract:
      "A review of how six public bodies handle thousands of information requests a year, and the role of records management in meeting statutory deadlines.",
    category: "Records Management",
    tags: ["foi", "public sector", "compliance"],
    status: "published",
    age: 250,
  },
  {
    title: "Data Mesh in Logistics: Two Years In",
    authors: ["Hiroshi Tanaka", "Yuki Sato"],
    abstract:
      "An experience report on decentralising data ownership to domain teams in a large logistics company: what improved, what did not, and the platform capabilities that mattered most.",
    category: "Digital Transformation",
    tags: ["data mesh", "logistics", "data platform"],
    status: "published",
    age: 280,
    pdf: true,
  },
  {
    title: "Interoperable Health Records: A National Rollout Case Study",
    authors: ["Fatima Al-Sayed", "Omar Haddad"],
    abstract:
      "We describe the national rollout of FHIR-based health records across 60 hospitals, including governance, consent and the measured reduction in duplicate tests.",
    category: "Health Information",
    tags: ["health", "fhir", "interoperability", "case study"],
    status: "published",
    age: 310,
    pdf: true,
  },
  {
    title: "Consolidating Municipal Records Systems",
    authors: ["James Whitfield"],
    abstract:
      "How a large city moved 80 departments onto one electronic records system, including change management and the classification scheme that made it possible.",
    category: "Records Management",
    tags: ["municipal", "edrms", "change management"],
    status: "published",
    age: 340,
  },
  {
    title: "Building Data Literacy in African SMEs",
    authors: ["Ngozi Eze", "Samuel Boateng"],
    abstract:
      "A training intervention with 300 small and medium enterprises in Ghana and Kenya improved the use of basic sales and inventory data; we report outcomes after one year.",
    category: "Digital Transformation",
    tags: ["data literacy", "sme", "training", "africa"],
    status: "published",
    age: 370,
  },
  {
    title: "Communities of Practice in Research Institutes",
    authors: ["Isabela Costa", "Rafael Souza"],
    abstract:
      "A mixed-methods study of 14 communities of practice in a Brazilian research institute and their effect on knowledge reuse across departments.",
    category: "Knowledge Management",
    tags: ["communities of practice", "research", "knowledge sharing"],
    status: "published",
    age: 400,
    pdf: true,
  },
  {
    title: "Secure Research Environments for Health Data",
    authors: ["Tom Nguyen", "Aroha Walker"],
    abstract:
      "We compare trusted research environments in Australia and New Zealand and propose minimum controls for safe access to linked health data.",
    category: "Health Information",
    tags: ["health data", "trusted research environment", "security"],
    status: "published",
    age: 430,
  },
  {
    title: "Metadata Quality in Digitised Heritage Collections",
    authors: ["Elena Petrova"],
    abstract:
      "An assessment of metadata completeness across 1.2 million digitised objects and its effect on discovery in aggregated portals.",
    category: "Open Data & Research",
    tags: ["metadata", "heritage", "digitisation"],
    status: "published",
    age: 460,
  },
  {
    title: "Digitising Public Services in Kenya: The e-Citizen Experience",
    authors: ["Michael Otieno", "Grace Njeri"],
    abstract:
      "An account of bringing more than 5,000 government services online in Kenya, with data on adoption, payment reconciliation and citizen satisfaction.",
    category: "Digital Transformation",
    tags: ["e-government", "kenya", "public services"],
    status: "published",
    age: 490,
    pdf: true,
  },
  {
    title: "Retention and Disposition of Collaboration Platform Content",
    authors: ["Sarah O'Connell", "Lars Henriksen"],
    abstract:
      "Chat messages and shared workspaces challenge traditional retention. We propose an approach based on workspace classification and automated disposition.",
    category: "Records Management",
    tags: ["retention", "collaboration", "microsoft teams"],
    status: "published",
    age: 520,
  },
  {
    title: "Bias in Credit Scoring Data: Evidence from Mobile Lending",
    authors: ["Priya Raghunathan", "Wanjiku Kamau"],
    abstract:
      "Using anonymised mobile lending data, we show how historical repayment data encodes regional bias and evaluate three mitigation techniques.",
    category: "Artificial Intelligence",
    tags: ["ai", "credit scoring", "bias", "mobile money"],
    status: "published",
    age: 550,
  },
  {
    title: "Data Protection Officers in Practice: A Survey",
    authors: ["Carlos Mendoza", "Sarah O'Connell", "Amina Yusuf"],
    abstract:
      "A survey of 210 data protection officers across four continents on their workload, independence and reporting lines.",
    category: "Cybersecurity & Privacy",
    tags: ["dpo", "privacy", "survey"],
    status: "published",
    age: 580,
  },
  {
    title: "FAIR Principles for Small Research Teams",
    authors: ["Amara Diallo", "Elena Petrova"],
    abstract:
      "Practical guidance for making research data findable, accessible, interoperable and reusable when a team has no dedicated data steward.",
    category: "Open Data & Research",
    tags: ["fair data", "research data management", "open science"],
    status: "published",
    age: 610,
  },
  {
    title: "Information Governance for Climate Data",
    authors: ["Kwame Mensah", "Isabela Costa"],
    abstract:
      "Climate adaptation depends on data shared between agencies. We analyse governance arrangements in five countries and their effect on data availability.",
    category: "Data Governance",
    tags: ["climate", "data sharing", "governance"],
    status: "accepted",
    age: 20,
  },
  {
    title: "Large Language Models as Records Classifiers",
    authors: ["Mei-Ling Chen", "Hiroshi Tanaka"],
    abstract:
      "We evaluate large language models for classifying records against a functional classification scheme and compare their accuracy with trained records officers.",
    category: "Artificial Intelligence",
    tags: ["llm", "classification", "records"],
    status: "accepted",
    age: 14,
  },
  {
    title: "Archival Appraisal of Social Media Accounts",
    authors: ["Lars Henriksen"],
    abstract:
      "A method for appraising the social media accounts of public officials for permanent preservation.",
    category: "Records Management",
    tags: ["appraisal", "social media", "archives"],
    status: "accepted",
    age: 9,
  },
  {
    title: "Zero Trust Architectures for Document Repositories",
    authors: ["Carlos Mendoza", "Tom Nguyen"],
    abstract:
      "We apply zero trust principles to enterprise document repositories and measure the operational overhead in two organisations.",
    category: "Cybersecurity & Privacy",
    tags: ["zero trust", "security", "repositories"],
    status: "under_review",
    age: 12,
  },
  {
    title: "Knowledge Loss During Public Sector Restructuring",
    authors: ["Ngozi Eze", "James Whitfield"],
    abstract:
      "When agencies merge, knowledge is lost. We study two mergers and propose a knowledge transfer checklist.",
    category: "Knowledge Management",
    tags: ["knowledge loss", "public sector", "restructuring"],
    status: "under_review",
    age: 8,
  },
  {
    title: "Patient Access to Health Records in East Africa",
    authors: ["Fatima Al-Sayed", "Grace Njeri"],
    abstract:
      "A comparison of patients' rights of access to their health records under data protection laws in Kenya, Rwanda, Uganda and Tanzania.",
    category: "Health Information",
    tags: ["health", "patient rights", "east africa"],
    status: "under_review",
    age: 5,
  },
  {
    title: "Data Stewardship Roles in Universities",
    authors: ["Elena Petrova", "Adebayo Okonkwo"],
    abstract:
      "An analysis of how universities assign data stewardship responsibilities and the effect on research data quality.",
    category: "Open Data & Research",
    tags: ["data stewardship", "universities"],
    status: "submitted",
    age: 4,
  },
  {
    title: "Digital Signatures and the Evidential Weight of Records",
    authors: ["Sarah O'Connell"],
    abstract:
      "How courts in common-law jurisdictions have treated digitally signed records, and what this means for long-term preservation.",
    category: "Records Management",
    tags: ["digital signatures", "evidence", "law"],
    status: "submitted",
    age: 3,
  },
  {
    title: "Mobile Money Data for Official Statistics",
    authors: ["Wanjiku Kamau", "Kwame Mensah"],
    abstract:
      "We explore whether aggregated mobile money transactions can complement household surveys in measuring economic activity.",
    category: "Data Governance",
    tags: ["official statistics", "mobile money", "big data"],
    status: "submitted",
    age: 2,
  },
  {
    title: "A Taxonomy of Information Management Roles",
    authors: ["Isabela Costa"],
    abstract: "Draft taxonomy of job roles in information management, for consultation.",
    category: "Knowledge Management",
    tags: ["careers", "taxonomy"],
    status: "draft",
    age: 1,
  },
  {
    title: "Sustainable Digitisation Funding Models",
    authors: ["Elena Petrova", "Amara Diallo"],
    abstract: "Work in progress on how memory institutions fund digitisation over the long term.",
    category: "Open Data & Research",
    tags: ["funding", "digitisation"],
    status: "draft",
    age: 1,
  },
  {
    title: "Cyber Insurance and Records Management",
    authors: ["Tom Nguyen"],
    abstract: "Early notes on how cyber insurance questionnaires assess records management.",
    category: "Cybersecurity & Privacy",
    tags: ["cyber insurance", "risk"],
    status: "draft",
    age: 0,
  },
  {
    title: "Blockchain as an Archival Repository",
    authors: ["Samuel Boateng"],
    abstract:
      "A proposal to use a public blockchain as the authoritative repository for land records.",
    category: "Records Management",
    tags: ["blockchain", "land records"],
    status: "rejected",
    age: 40,
  },
  {
    title: "Fully Automated Data Governance Without Stewards",
    authors: ["Arjun Mehta"],
    abstract:
      "An argument that data stewardship roles can be replaced entirely by automated quality rules.",
    category: "Data Governance",
    tags: ["automation", "data quality"],
    status: "rejected",
    age: 55,
  },
];

export type SeedOffice = {
  region: "Africa" | "Asia" | "Europe" | "North America" | "South America" | "Oceania";
  city: string;
  country: string;
  address: string;
  email: string;
  phone: string;
  latitude: number;
  longitude: number;
  status: "active" | "inactive";
  isHeadquarters?: boolean;
  /** One span a line, in the office's local time zone, named (issue 18). */
  openingHours: string;
  services: string[];
};

/** The Nairobi head office, with the contact details the site shows (footer, contact page). */
export const HEAD_OFFICE = {
  city: HEADQUARTERS.city,
  country: HEADQUARTERS.country,
  address: HEADQUARTERS.address,
  email: HEADQUARTERS.email,
  phone: HEADQUARTERS.phone,
};

export const OFFICES: SeedOffice[] = [
  {
    region: "Africa",
    ...HEAD_OFFICE,
    latitude: -1.2648,
    longitude: 36.8031,
    status: "active",
    isHeadquarters: true,
    openingHours: ["Mon–Fri 08:00–18:00 EAT (East Africa Time)", "Sat 09:00–13:00 EAT"].join("\n"),
    services: ["Conferences", "Training", "Consulting", "Membership desk", "Research library"],
  },
  {
    region: "Africa",
    city: "Lagos",
    country: "Nigeria",
    address: "12 Adeola Odeku Street, Victoria Island, Lagos, Nigeria",
    email: "lagos@kongamano.org",
    phone: "+234 1 460 2200",
    latitude: 6.4281,
    longitude: 3.4219,
    status: "active",
    openingHours: "Mon–Fri 08:30–17:30 WAT (West Africa Time)",
    services: ["Conferences", "Training", "Membership desk"],
  },
  {
    region: "Africa",
    city: "Cape Town",
    country: "South Africa",
    address: "Foreshore Place, 2 Riebeek Street, Cape Town, 8001, South Africa",
    email: "capetown@kongamano.org",
    phone: "+27 21 418 3300",
    latitude: -33.9189,
    longitude: 18.4233,
    status: "inactive",
    openingHours: "Mon–Fri 08:30–17:00 SAST (South Africa Standard Time)",
    services: ["Training", "Consulting"],
  },
  {
    region: "Asia",
    city: "Singapore",
    country: "Singapore",
    address: "1 Raffles Place, #20-61 Tower 2, Singapore 048616",
    email: "singapore@kongamano.org",
    phone: "+65 6808 5100",
    latitude: 1.2841,
    longitude: 103.8515,
    status: "active",
    openingHours: "Mon–Fri 09:00–18:00 SGT (Singapore Time)",
    services: ["Conferences", "Consulting", "Training"],
  },
  {
    region: "Asia",
    city: "Mumbai",
    country: "India",
    address: "Level 9, Nariman Bhavan, Nariman Point, Mumbai 400021, India",
    email: "mumbai@kongamano.org",
    phone: "+91 22 6630 4400",
    latitude: 18.9256,
    longitude: 72.8242,
    status: "active",
    openingHours: ["Mon–Fri 09:30–18:30 IST (India Standard Time)", "Sat 10:00–14:00 IST"].join(
      "\n",
    ),
    services: ["Training", "Membership desk", "Consulting"],
  },
  {
    region: "Asia",
    city: "Dubai",
    country: "United Arab Emirates",
    address: "Dubai Internet City, Building 3, Office 210, Dubai, United Arab Emirates",
    email: "dubai@kongamano.org",
    phone: "+971 4 391 2800",
    latitude: 25.0955,
    longitude: 55.1603,
    status: "active",
    openingHours: ["Mon–Thu 08:00–17:00 GST (Gulf Standard Time)", "Fri 08:00–12:00 GST"].join(
      "\n",
    ),
    services: ["Conferences", "Exhibitions", "Consulting"],
  },
  {
    region: "Europe",
    city: "London",
    country: "United Kingdom",
    address: "30 Churchill Place, Canary Wharf, London E14 5RE, United Kingdom",
    email: "london@kongamano.org",
    phone: "+44 20 3880 1500",
    latitude: 51.5049,
    longitude: -0.0195,
    status: "active",
    openingHours: "Mon–Fri 09:00–17:30 UK time (GMT/BST)",
    services: ["Conferences", "Training", "Consulting", "Research library"],
  },
  {
    region: "Europe",
    city: "Berlin",
    country: "Germany",
    address: "Friedrichstraße 68, 10117 Berlin, Germany",
    email: "berlin@kongamano.org",
    phone: "+49 30 2089 4700",
    latitude: 52.5094,
    longitude: 13.3889,
    status: "active",
    openingHours: [
      "Mon–Thu 09:00–17:00 CET/CEST (Central European Time)",
      "Fri 09:00–15:00 CET/CEST",
    ].join("\n"),
    services: ["Training", "Consulting"],
  },
  {
    region: "North America",
    city: "Toronto",
    country: "Canada",
    address: "100 King Street West, Suite 5600, Toronto, ON M5X 1C9, Canada",
    email: "toronto@kongamano.org",
    phone: "+1 416 555 0142",
    latitude: 43.6486,
    longitude: -79.3817,
    status: "active",
    openingHours: "Mon–Fri 09:00–17:00 ET (Eastern Time, EST/EDT)",
    services: ["Conferences", "Membership desk"],
  },
  {
    region: "North America",
    city: "New York",
    country: "United States",
    address: "245 Park Avenue, 39th Floor, New York, NY 10167, United States",
    email: "newyork@kongamano.org",
    phone: "+1 212 555 0188",
    latitude: 40.7546,
    longitude: -73.9754,
    status: "inactive",
    openingHours: "Mon–Fri 09:00–17:30 ET (Eastern Time, EST/EDT)",
    services: ["Conferences", "Consulting"],
  },
  {
    region: "South America",
    city: "São Paulo",
    country: "Brazil",
    address: "Avenida Paulista 1842, 15º andar, São Paulo, SP 01310-200, Brazil",
    email: "saopaulo@kongamano.org",
    phone: "+55 11 3500 7200",
    latitude: -23.5613,
    longitude: -46.6565,
    status: "active",
    openingHours: "Mon–Fri 09:00–18:00 BRT (Brasília Time)",
    services: ["Conferences", "Training"],
  },
  {
    region: "South America",
    city: "Bogotá",
    country: "Colombia",
    address: "Carrera 7 # 71-21, Torre B, Bogotá, Colombia",
    email: "bogota@kongamano.org",
    phone: "+57 601 742 5500",
    latitude: 4.6561,
    longitude: -74.0548,
    status: "active",
    openingHours: "Mon–Fri 08:00–17:00 COT (Colombia Time)",
    services: ["Training", "Consulting"],
  },
  {
    region: "Oceania",
    city: "Sydney",
    country: "Australia",
    address: "Level 27, 1 Bligh Street, Sydney NSW 2000, Australia",
    email: "sydney@kongamano.org",
    phone: "+61 2 8005 3600",
    latitude: -33.8651,
    longitude: 151.2109,
    status: "active",
    openingHours: "Mon–Fri 08:30–17:00 AET (Australian Eastern Time, AEST/AEDT)",
    services: ["Conferences", "Training", "Consulting"],
  },
  {
    region: "Oceania",
    city: "Auckland",
    country: "New Zealand",
    address: "Level 8, 22 Fanshawe Street, Auckland 1010, New Zealand",
    email: "auckland@kongamano.org",
    phone: "+64 9 300 4800",
    latitude: -36.8446,
    longitude: 174.7594,
    status: "inactive",
    openingHours: "Mon–Fri 08:30–17:00 NZT (New Zealand Time, NZST/NZDT)",
    services: ["Training", "Membership desk"],
  },
];

export const CONTACT_MESSAGES = [
  {
    name: "Peter Kariuki",
    email: "peter.kariuki@example.com",
    subject: "Group registration for the Annual Summit",
    message:
      "We would like to register a team of six from our ministry for the Annual Summit. Is the group rate available with invoicing?",
    region: "africa" as const,
  },
  {
    name: "Sophie Laurent",
    email: "sophie.laurent@example.com",
    subject: "Speaking opportunity",
    message:
      "I lead the records programme at a European agency and would love to present our email archiving work at one of your events.",
    region: "europe" as const,
  },
  {
    name: "Ravi Kumar",
    email: "ravi.kumar@example.com",
    subject: "Corporate membership",
    message:
      "Could you send details of the Corporate membership for a team of eight in Mumbai and Singapore?",
    region: "asia" as const,
  },
];

/** One session: [start hour, minute, duration minutes, title, description]. */
export type AgendaSession = [number, number, number, string, string];

/** Agenda session templates per event type (a multi-day event's first day). */
export const AGENDA_TEMPLATES: Record<SeedEvent["type"], AgendaSession[]> = {
  conference: [
    [8, 0, 60, "Registration and Breakfast", "Collect your badge and meet fellow delegates."],
    [9, 0, 60, "Opening Keynote", "Setting the scene for the day: {theme}."],
    [
      10,
      30,
      75,
      "Panel Discussion: {category} Leaders",
      "Practitioners compare approaches and answer audience questions.",
    ],
    [13, 0, 90, "Breakout Sessions", "Parallel case-study tracks on {category}."],
    [15, 0, 60, "Fireside Chat", "An open conversation with one of our featured speakers."],
    [16, 30, 30, "Closing Remarks", "Key takeaways and what comes next."],
  ],
  exhibition: [
    [9, 0, 60, "Exhibition Hall Opens", "Visit the stands and live demonstrations."],
    [11, 0, 45, "Showcase Talks", "Ten-minute talks from selected exhibitors."],
    [14, 0, 60, "Innovation Pavilion Tour", "A guided tour of start-ups in {category}."],
    [16, 0, 60, "Networking Reception", "Meet exhibitors and delegates."],
  ],
  gala: [
    [18, 0, 60, "Welcome Reception", "Drinks and canapés."],
    [19, 0, 90, "Dinner and Keynote Address", "{theme}."],
    [20, 30, 60, "Awards Ceremony", "Presentation of the evening's awards."],
    [
      21,
      30,
      90,
      "Live Music and Celebration",
      "Celebrate with colleagues from across the network.",
    ],
  ],
  workshop: [
    [9, 0, 30, "Welcome and Objectives", "What we will build together today."],
    [9, 30, 90, "Guided Exercise", "Work in small groups on a realistic scenario."],
    [11, 15, 75, "Group Work", "Apply the method to your own organisation."],
    [
      14,
      0,
      90,
      "Review and Feedback",
      "Groups present and receive feedback from the facilitators.",
    ],
    [15, 45, 30, "Action Planning", "Leave with a plan for your first ninety days."],
  ],
  seminar: [
    [14, 0, 15, "Introduction", "Welcome from the chair."],
    [14, 15, 60, "Talks", "Short talks on {theme}."],
    [15, 30, 45, "Open Discussion", "Questions and discussion with the audience."],
  ],
  networking: [
    [17, 30, 30, "Arrival and Welcome", "Name badges and a welcome drink."],
    [18, 0, 45, "Lightning Talks", "Five-minute talks from members."],
    [18, 45, 75, "Open Networking", "Meet peers; the job board is open."],
  ],
  webinar: [
    [14, 0, 10, "Welcome", "Housekeeping and introductions."],
    [14, 10, 35, "Presentation", "{theme}."],
    [14, 45, 15, "Live Q&A", "Your questions answered by the presenters."],
  ],
  vendor: [
    [9, 0, 30, "Briefing Overview", "How the day works and the scenarios each vendor will answer."],
    [9, 30, 150, "Vendor Presentations", "Scripted demonstrations of {category} solutions."],
    [
      13,
      0,
      60,
      "Practitioner Panel",
      "Members share what they learned from their own procurements.",
    ],
    [14, 0, 90, "One-to-One Meetings", "Book time with the vendors that interest you."],
  ],
};

/** Later days of multi-day events: each day has its own programme (day 1 is the template). */
export const LATER_DAYS: Partial<Record<SeedEvent["type"], AgendaSession[][]>> = {
  conference: [
    [
      [8, 30, 30, "Morning Coffee", "Coffee and an informal recap of day one."],
      [9, 0, 60, "Keynote: {category} in Practice", "Lessons from organisations that delivered."],
      [
        10,
        15,
        90,
        "Case-Study Track",
        "Three organisations walk through real projects on {theme}.",
      ],
      [13, 0, 75, "Hands-on Labs", "Small-group labs with tools and templates you can take home."],
      [14, 30, 60, "Roundtables", "Peer discussions by sector, each hosted by a member."],
      [16, 0, 45, "Community Showcase", "Members present projects from across the network."],
    ],
    [
      [9, 0, 45, "Policy Briefing", "Regulation and standards that will shape the next year."],
      [10, 0, 90, "Masterclasses", "Deep dives led by our featured speakers."],
      [13, 0, 60, "Future of {category} Panel", "Where the discipline is heading."],
      [14, 15, 45, "Summit Declaration", "Agreeing the commitments we take home."],
      [15, 0, 30, "Farewell", "Thanks, awards for best talks, and next year's host city."],
    ],
  ],
  exhibition: [
    [
      [9, 0, 30, "Doors Open", "The hall opens for day two."],
      [10, 0, 60, "Buyer Briefings", "Exhibitors answer procurement questions from members."],
      [13, 0, 90, "Start-up Pitch Session", "Young companies in {category} pitch to a jury."],
      [15, 30, 60, "Awards and Close", "Best stand and best innovation awards."],
    ],
    [
      [9, 30, 120, "Open Hall", "The last day to visit every stand."],
      [13, 0, 60, "Meet the Makers", "Product teams explain their roadmaps."],
      [14, 30, 30, "Closing Tour", "A final walk through the innovation pavilion."],
    ],
  ],
  workshop: [
    [
      [9, 0, 30, "Recap", "What we learned on day one."],
      [9, 30, 120, "Build Session", "Teams build their own artefacts for {theme}."],
      [13, 0, 60, "Peer Review", "Teams review each other's work."],
      [14, 15, 45, "Certificates and Next Steps", "Certificates of completion and follow-up."],
    ],
  ],
};

/** IANA zones of the demo events' cities (online events keep Nairobi, the network's zone). */
export const CITY_TIME_ZONES: Record<string, string> = {
  Nairobi: "Africa/Nairobi",
  Kigali: "Africa/Kigali",
  London: "Europe/London",
  Edinburgh: "Europe/London",
  Singapore: "Asia/Singapore",
  "Cape Town": "Africa/Johannesburg",
  Johannesburg: "Africa/Johannesburg",
  Dubai: "Asia/Dubai",
  Lagos: "Africa/Lagos",
  Accra: "Africa/Accra",
  Toronto: "America/Toronto",
  "New York": "America/New_York",
  "São Paulo": "America/Sao_Paulo",
  Berlin: "Europe/Berlin",
  Sydney: "Australia/Sydney",
};
